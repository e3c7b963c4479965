import { createHash } from "node:crypto";
import type { Database, Queryable } from "../../db/client";
import { linkGrantFor } from "../link-grant";
import type { AcceptedEvent } from "./accepted-event";
import { STAY_TIME_BUCKETS_MS, STEP_ENGAGEMENT_EVENT } from "./step-engagement";

/** Product brief, Analytics; issue 14 item 3: a view counts once per visitor per presentation per 30 minutes. */
export const VIEW_WINDOW_MINUTES = 30;
/**
 * Views one address adds to one presentation in an hour, at most (issue 28 item 4; 3 before it).
 * Sized for a classroom behind one school address: a class of 30 (school classes are rarely
 * larger) with its teacher, and room for a few page loads again (without the usage cookie a
 * browser's every page load is a new visitor); an office team watching a deck together is
 * about that size too. It is also what a script can add: it can fetch fresh visitor ids
 * (visitor-id.ts), so from one address it adds at most 40 views of a deck an hour.
 */
export const ADDRESS_VIEWS_PER_HOUR = 40;

/**
 * Locks the rows of the presentations a batch may count views of, in id order (so two batches
 * never wait on each other in a circle): batches that count views of one presentation take turns,
 * and each one's counting statement, run after the lock, sees what the ones before it stored.
 */
const LOCK_SQL = `
  select id from presentations
   where oid = any($1::text[])
   order by id
     for no key update`;

/**
 * One statement stores a batch and counts its views (issue 14 items 3–5):
 *  - an event whose id is already stored (a redelivery) is left out, stored and counted once;
 *  - a view counts when the event asks to (a loaded public view page), its presentation exists and
 *    is public or reusable and not hidden (private, unlisted, deleted: never), it names a visitor
 *    (a server-issued visitor id, issue 28 item 4: features/events/sender-keys.ts, visitor-id.ts),
 *    the same visitor sent no loaded event for it in the 30 minutes before (in the
 *    batch or stored), and its address counted fewer than ADDRESS_VIEWS_PER_HOUR views of it in
 *    the hour before;
 *  - the counted events are marked counted_view, and view_count and the day's row of
 *    presentation_daily_views grow by exactly the number of counted events that were inserted.
 * Events of one batch are taken in the order they arrived (the batch's order, `arrival`): two
 * accepted in the same millisecond were once ordered by their random ids, so a visitor's later
 * claim could be judged first (issue 29: a test that failed one run in many).
 * The statement's reads of usage_events see only events stored before it (one snapshot). Across
 * midnight (UTC) a visitor's and an address's keys change (features/events/sender-keys.ts); stored
 * events are also matched by the keys under the day before's salt. (Within one batch, events are
 * matched by today's keys only: a visitor loading a page twice in the same batch across midnight,
 * a fraction of a second, is not worth a quadratic comparison.)
 */
const STORE_SQL = `
  with input as (
    select distinct on (event_uid) *
      from unnest($1::uuid[], $2::float8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::text[], $9::text[],
                  $10::text[], $11::text[], $16::text[], $17::text[], $18::float8[], $19::float8[], $20::boolean[])
        with ordinality
        as i(event_uid, received_ms, session_id, event_name, presentation_oid, payload, wants_view, visitor_key, address_key,
             visitor_before, address_before, source_kind, source_host, step_claimed, step_budget, step_refused, arrival)
     order by event_uid
  ),
  fresh as (
    select i.*, to_timestamp(i.received_ms / 1000.0) as received_at,
           (select p.id from presentations p
             where i.wants_view and i.visitor_key is not null and i.address_key is not null
               and p.oid = i.presentation_oid and p.privacy in ('public', 'reusable') and not p.hidden) as countable_in,
           lag(to_timestamp(i.received_ms / 1000.0))
             over (partition by i.presentation_oid, i.visitor_key, i.wants_view order by i.received_ms, i.arrival) as visited_before
      from input i
     where not exists (select 1 from usage_events e where e.event_uid = i.event_uid)
  ),
  visits as materialized (
    select f.*,
           f.countable_in is not null
           and (f.visited_before is null or f.visited_before <= f.received_at - make_interval(mins => $12))
           and not exists (
             select 1 from usage_events e
              where e.presentation_oid = f.presentation_oid and e.visitor_key in (f.visitor_key, f.visitor_before)
                and e.received_at > f.received_at - make_interval(mins => $12) and e.event_name <> $14
           ) as new_visit
      from fresh f
  ),
  decided as (
    select v.*,
           v.new_visit
           and row_number() over (partition by v.presentation_oid, v.address_key, v.new_visit order by v.received_at, v.arrival)
             + (select count(*) from usage_events e
                 where v.new_visit and e.counted_view and e.presentation_oid = v.presentation_oid
                   and e.address_key in (v.address_key, v.address_before)
                   and e.received_at > v.received_at - interval '1 hour') <= $13 as counts
      from visits v
  ),
  -- Issue 33 (forged step events): a step event adds to the aggregates only when it carries a
  -- signed visitor id (step_claimed is null otherwise, accepted-event.ts), through a view link
  -- with a passcode only with the link's grant (step_refused), with its steps within the deck's
  -- path, when its visitor's claims (stored and earlier in the batch) stay within the time since
  -- its id was issued, and when its visitor is one its address already added in the hour or the
  -- address added fewer than ADDRESS_VIEWS_PER_HOUR visitors of the deck in the hour (as views).
  decks as materialized (
    select p.oid, jsonb_array_length(p.document->'path') as steps
      from presentations p
     where p.oid in (select presentation_oid from decided where step_claimed is not null)
  ),
  step_candidates as (
    select d.event_uid, d.arrival, d.presentation_oid, d.received_at, d.visitor_key, d.visitor_before, d.address_key,
           d.address_before, d.step_claimed, d.step_budget
      from decided d
      join decks k on k.oid = d.presentation_oid
     where d.step_claimed is not null and not d.step_refused and d.visitor_key is not null
       and not exists (select 1 from jsonb_array_elements(d.payload::jsonb->'body'->'stays') x
                        where (x->>'s')::int >= k.steps)
  ),
  step_bounded as (
    select c.event_uid,
           sum(c.step_claimed) over (partition by c.presentation_oid, c.visitor_key order by c.received_at, c.arrival)
             + (select coalesce(sum(e.step_ms), 0) from usage_events e
                 where e.presentation_oid = c.presentation_oid and e.visitor_key in (c.visitor_key, c.visitor_before)
                   and e.step_ms is not null) <= c.step_budget
           and (exists (select 1 from usage_events e
                         where e.presentation_oid = c.presentation_oid
                           and e.visitor_key in (c.visitor_key, c.visitor_before)
                           and e.step_ms is not null and e.received_at > c.received_at - interval '1 hour')
                or dense_rank() over (partition by c.presentation_oid, c.address_key order by c.visitor_key)
                   + (select count(distinct e.visitor_key) from usage_events e
                       where e.presentation_oid = c.presentation_oid
                         and e.address_key in (c.address_key, c.address_before)
                         and e.step_ms is not null and e.received_at > c.received_at - interval '1 hour') <= $13)
             as counts
      from step_candidates c
  ),
  inserted as (
    insert into usage_events
           (event_uid, received_at, session_id, event_name, presentation_oid, payload, visitor_key, address_key, counted_view,
            step_ms)
    select d.event_uid, d.received_at, d.session_id, d.event_name, d.presentation_oid, d.payload::jsonb,
           d.visitor_key, d.address_key, d.counts, case when b.counts then d.step_claimed::int end
      from decided d
      left join step_bounded b on b.event_uid = d.event_uid
     order by d.event_uid
        on conflict (event_uid) do nothing
    returning event_uid, presentation_oid, received_at, counted_view, event_name, payload, step_ms
  ),
  views as (
    select p.id as presentation_id, t.day, t.n
      from (select presentation_oid, (received_at at time zone 'UTC')::date as day, count(*)::int as n
              from inserted where counted_view group by 1, 2) t
      join presentations p on p.oid = t.presentation_oid
  ),
  moved as (
    update presentations p set view_count = p.view_count + t.n
      from (select presentation_id, sum(n)::int as n from views group by 1) t
     where p.id = t.presentation_id
    returning p.id
  ),
  charted as (
    insert into presentation_daily_views (presentation_id, day, views)
    select presentation_id, day, n from views order by presentation_id, day
        on conflict (presentation_id, day) do update set views = presentation_daily_views.views + excluded.views
    returning presentation_id
  ),
  -- Issue 33 item 1: the step events inserted (never a redelivery: those aren't inserted), by
  -- presentation, UTC day and audience (a view link of that presentation, or '' for the public
  -- page); an event naming a link that isn't that presentation's, or that is off or expired, is
  -- left out of the aggregates.
  engaged as (
    select p.id as presentation_id, (i.received_at at time zone 'UTC')::date as day,
           coalesce(v.link_id, '') as link_id, i.payload->'body' as body
      from inserted i
      join presentations p on p.oid = i.presentation_oid
      left join view_links v on v.link_id = i.payload->'body'->>'link' and v.presentation_id = p.id
            and v.enabled and v.revoked_at is null and (v.expires_at is null or v.expires_at > i.received_at)
     where i.event_name = $14 and i.step_ms is not null
       and (i.payload->'body'->>'link' is null or v.link_id is not null)
  ),
  stays as (
    select e.presentation_id, e.day, e.link_id, (s->>'s')::int as step, (s->>'ms')::bigint as ms,
           s ? 'f' as first, s ? 'b' as back
      from engaged e cross join lateral jsonb_array_elements(e.body->'stays') s
  ),
  stepped as (
    insert into presentation_step_daily as d (presentation_id, day, link_id, step, reached, backs, stays, total_ms)
    select presentation_id, day, link_id, step, count(*) filter (where first), count(*) filter (where back),
           count(*), sum(ms)
      from stays group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (presentation_id, day, link_id, step) do update
       set reached = d.reached + excluded.reached, backs = d.backs + excluded.backs,
           stays = d.stays + excluded.stays, total_ms = d.total_ms + excluded.total_ms
    returning 1
  ),
  timed as (
    insert into presentation_step_times as t (presentation_id, day, link_id, step, bucket, n)
    select presentation_id, day, link_id, step, bucket, count(*)::int
      from (select presentation_id, date_trunc('week', day)::date as day, link_id, step,
                   width_bucket(ms, $15::bigint[]) as bucket
              from stays
            union all
            select presentation_id, date_trunc('week', day)::date, link_id, -1,
                   width_bucket((body->>'visit_ms')::bigint, $15::bigint[])
              from engaged where body ? 'visit_ms' and (body->>'visit_ms')::bigint > 0) b
     group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
        on conflict (presentation_id, day, link_id, step, bucket) do update set n = t.n + excluded.n
    returning 1
  ),
  -- Issue 33 item 2: where views come from: a view page's source when it counted a view, every
  -- play in an embed and every share button used, by kind and host (never a URL).
  sourced as (
    insert into presentation_daily_sources as s (presentation_id, day, kind, host, n)
    select p.id, (d.received_at at time zone 'UTC')::date, d.source_kind, d.source_host, count(*)::int
      from decided d
      join inserted i on i.event_uid = d.event_uid
      join presentations p on p.oid = d.presentation_oid
     where d.source_kind is not null and (d.source_kind in ('embed', 'share') or d.counts)
     group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (presentation_id, day, kind, host) do update set n = s.n + excluded.n
    returning 1
  )
  select (select count(*) from inserted)::int as stored,
         (select coalesce(sum(n), 0) from views)::int as counted,
         (select count(*) from moved)::int as presentations,
         (select count(*) from stepped)::int + (select count(*) from timed)::int as engagement_rows,
         (select count(*) from sourced)::int as source_rows`;

/**
 * Issue 32 item 4: the events that can change nothing but their own row (no view asked, no step
 * bounds, no source: most of what pages send) are stored a batch to a row, in
 * `usage_event_batches` (migration 0031): their JSON in one `json` column, compressed (lz4 on
 * PostgreSQL), keyed by the batch's first plain event's id. A row each cost PostgreSQL about 20 µs
 * an event (jsonb of every payload, the heap row and its WAL, two b-trees), a batch's row about 3.
 * No statement reads them one by one: STORE_SQL's lookups match stored events by visitor key (null
 * here), counted_view (false) or step_ms (null), and retention deletes by age;
 * `usage_event_log` (a view) shows every stored event a row each.
 * A batch stored twice (a retry whose commit did happen, a redelivery) is stored once, by its key:
 * so a batch is re-sent only whole, as it was (the in-process queue retries a failed batch as it
 * was; JetStream redelivers a message as it was, and each message is a batch of its own, `units`).
 * Each unit's rows go in one multi-row insert, each unit's JSON one parameter (in binary form on
 * PostgreSQL: `json`'s is its UTF-8 text).
 */
function plainSql(units: number): string {
  const rows = Array.from(
    { length: units },
    (_, i) =>
      `($${4 * i + 1}::uuid, to_timestamp($${4 * i + 2}::float8 / 1000.0), $${4 * i + 3}::int, $${4 * i + 4}::json)`,
  );
  return `
  with inserted as (
    insert into usage_event_batches (batch_uid, received_at, event_count, events)
    values ${rows.join(", ")}
        on conflict (batch_uid) do nothing
    returning event_count
  )
  select coalesce(sum(event_count), 0)::int as stored from inserted`;
}

/** One event as an element of a batch's row (JSON text), its payload written in as it is. */
function plainRow(event: AcceptedEvent): string {
  const payload = typeof event.payload === "string" ? event.payload : JSON.stringify(event.payload);
  return (
    `{"u":${JSON.stringify(event.id)},"r":${JSON.stringify(event.receivedAt)},` +
    `"s":${JSON.stringify(event.sessionId)},"n":${JSON.stringify(event.eventName)},` +
    `"o":${JSON.stringify(event.presentationOid)},"p":${payload},"a":${JSON.stringify(event.sender.address)}}`
  );
}

/**
 * A batch's `events` as JSON text: an array of plainRow, appended to one string (issue 32 item 4:
 * a map of row strings then a join cost the web process twice as much, about 9 µs an event against
 * 5). PGlite's; node-postgres gets plainBatchBuffer.
 */
export function plainBatchJson(events: readonly AcceptedEvent[]): string {
  let json = "[";
  for (let i = 0; i < events.length; i++) json += (i === 0 ? "" : ",") + plainRow(events[i] as AcceptedEvent);
  return `${json}]`;
}

/**
 * The same array as plainBatchJson, as UTF-8 in a Buffer: node-postgres sends a Buffer parameter
 * as it is, in binary format, which for `json` is the text. Issue 32 item 4: a string parameter of
 * a few hundred KB cost the web process about 4 µs an event (flattened, measured, encoded and
 * copied, each time into fresh memory); the rows written into one Buffer, 0.3 µs.
 */
export function plainBatchBuffer(events: readonly AcceptedEvent[]): Buffer {
  const rows = events.map(plainRow);
  // UTF-8 takes at most 3 bytes per UTF-16 unit; the commas and brackets one each.
  let bound = 2;
  for (const row of rows) bound += 3 * row.length + 1;
  const buffer = Buffer.allocUnsafe(bound);
  let at = 0;
  buffer[at++] = 0x5b; // [
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) buffer[at++] = 0x2c; // ,
    at += buffer.write(rows[i] as string, at, "utf8");
  }
  buffer[at++] = 0x5d; // ]
  return buffer.subarray(0, at);
}

/**
 * Whether an event is stored with its batch's row (plainSql): it asks for no view, carries no step
 * bounds, no source and no visitor key (the route gives one only to a signed view or a step event),
 * so STORE_SQL would insert it as it is, add it to nothing, and no later decision looks at its row.
 */
export function isPlainEvent(event: AcceptedEvent): boolean {
  return (
    !event.wantsView &&
    (event.step ?? null) === null &&
    (event.source ?? null) === null &&
    event.sender.visitor === null &&
    event.sender.visitorBefore === null
  );
}

/** What a stored batch changed. */
export interface StoredBatch {
  /** Events newly stored (a redelivered one isn't). */
  stored: number;
  /** Views they counted. */
  counted: number;
}

/**
 * Stores a batch of accepted usage events (issue 14): all of them or none, in a few statements
 * whatever its size (a batch of plain events only, the usual one, in one statement). The event
 * pipeline (in-process queue or NATS JetStream) calls this with whatever it has gathered, possibly
 * from several processes at once; it may call it again with a batch already stored (a retry whose
 * commit happened, a redelivery), which is neither stored nor counted twice.
 *
 * `units` splits `events` into the runs that are re-sent only whole (their lengths, in order; by
 * default the whole batch is one): JetStream redelivers each message on its own, so each message is
 * a unit. Counting events are matched by their own ids, whatever their unit; plain ones by their
 * unit's (plainSql), so a unit must come again as it was.
 */
export async function storeEventBatch(
  db: Database,
  events: readonly AcceptedEvent[],
  units: readonly number[] = [events.length],
): Promise<StoredBatch> {
  if (events.length === 0) return { stored: 0, counted: 0 };
  const plain: AcceptedEvent[][] = [];
  const counting: AcceptedEvent[] = [];
  let at = 0;
  for (const length of units) {
    const unit: AcceptedEvent[] = [];
    const seen = new Set<string>();
    for (let i = at; i < at + length; i++) {
      const event = events[i] as AcceptedEvent;
      if (!isPlainEvent(event)) counting.push(event);
      // An event twice in one unit is stored once, as in STORE_SQL.
      else if (!seen.has(event.id)) {
        seen.add(event.id);
        unit.push(event);
      }
    }
    if (unit.length > 0) plain.push(unit);
    at += length;
  }
  if (at !== events.length) throw new Error(`units cover ${at} of ${events.length} events`);
  // One statement is all or nothing by itself; with both kinds, one transaction holds them.
  if (counting.length === 0) return { stored: await storePlainEvents(db, db.kind, plain), counted: 0 };
  return db.transaction(async (tx) => {
    // The counting statement first: its reads see only events stored before the batch, as when one
    // statement stored them all.
    const counted = await storeCountingEvents(tx, counting);
    const stored = plain.length === 0 ? 0 : await storePlainEvents(tx, db.kind, plain);
    return { stored: stored + counted.stored, counted: counted.counted };
  });
}

/** Units by their rows' keys (their first events' ids: lower-case UUIDs, whose text sorts as PostgreSQL's uuid does). */
const keyOrder = (a: readonly AcceptedEvent[], b: readonly AcceptedEvent[]) => {
  const [first, second] = [(a[0] as AcceptedEvent).id, (b[0] as AcceptedEvent).id];
  return first < second ? -1 : first > second ? 1 : 0;
};

/** Each unit's plain events as one row of usage_event_batches (plainSql); answers the events newly stored. */
async function storePlainEvents(
  db: Queryable,
  driver: Database["kind"],
  units: readonly (readonly AcceptedEvent[])[],
): Promise<number> {
  const parameters: unknown[] = [];
  // In key order, as the rows of one statement: two writers storing the same units (a redelivery
  // beside the first delivery) then never wait on each other's keys in a circle.
  const ordered = units.length === 1 ? units : [...units].sort((a, b) => keyOrder(a, b));
  for (const unit of ordered) {
    let newest = 0;
    for (const event of unit) newest = Math.max(newest, event.receivedAt);
    const events = driver === "postgres" ? plainBatchBuffer(unit) : plainBatchJson(unit);
    parameters.push((unit[0] as AcceptedEvent).id, newest, unit.length, events);
  }
  const [row] = await db.query<{ stored: number }>(plainSql(units.length), parameters);
  return row?.stored ?? 0;
}

/** The events that may count a view or add to the aggregates (not isPlainEvent), within the caller's transaction. */
async function storeCountingEvents(tx: Queryable, events: readonly AcceptedEvent[]): Promise<StoredBatch> {
  const viewed = [
    ...new Set(events.flatMap((event) => (event.wantsView && event.presentationOid ? [event.presentationOid] : []))),
  ];
  const linked = [...new Set(events.flatMap((event) => (event.step?.link ? [event.step.link] : [])))];
  if (viewed.length > 0) await tx.query(LOCK_SQL, [viewed]);
  const refused = await refusedLinkGrants(tx, events, linked);
  const [row] = await tx.query<{ stored: number; counted: number }>(STORE_SQL, [
    events.map((event) => event.id),
    events.map((event) => event.receivedAt),
    events.map((event) => event.sessionId),
    events.map((event) => event.eventName),
    events.map((event) => event.presentationOid),
    events.map((event) => (typeof event.payload === "string" ? event.payload : JSON.stringify(event.payload))),
    events.map((event) => event.wantsView),
    events.map((event) => event.sender.visitor),
    events.map((event) => event.sender.address),
    events.map((event) => event.sender.visitorBefore),
    events.map((event) => event.sender.addressBefore),
    VIEW_WINDOW_MINUTES,
    ADDRESS_VIEWS_PER_HOUR,
    STEP_ENGAGEMENT_EVENT,
    STAY_TIME_BUCKETS_MS,
    events.map((event) => event.source?.kind ?? null),
    events.map((event) => event.source?.host ?? null),
    events.map((event) => event.step?.claimedMs ?? null),
    events.map((event) => event.step?.budgetMs ?? null),
    refused,
  ]);
  return { stored: row?.stored ?? 0, counted: row?.counted ?? 0 };
}

/**
 * Issue 33 item 3: which events came through a view link with a passcode without that link's
 * grant (the cookie the passcode page sets; accepted-event.ts keeps its SHA-256): they add
 * nothing. One query, only for a batch with step events through links.
 */
async function refusedLinkGrants(
  tx: Queryable,
  events: readonly AcceptedEvent[],
  linked: readonly string[],
): Promise<boolean[]> {
  if (linked.length === 0) return events.map(() => false);
  const rows = await tx.query<{ linkId: string; passcodeHash: string }>(
    `select link_id as "linkId", passcode_hash as "passcodeHash"
       from view_links where link_id = any($1::text[]) and passcode_hash is not null`,
    [linked],
  );
  const expected = new Map(
    rows.map((link) => [link.linkId, createHash("sha256").update(linkGrantFor(link)).digest("hex")]),
  );
  return events.map((event) => {
    const wanted = event.step?.link ? expected.get(event.step.link) : undefined;
    return wanted !== undefined && event.step?.linkGrant !== wanted;
  });
}
