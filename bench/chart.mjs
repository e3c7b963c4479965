import { loadavg } from "node:os";
import pg from "pg";
import * as support from "./support.mjs";

process.chdir(support.ROOT);

const EVENTS = Math.floor(support.option("events", 1_000_000));
const REQUESTS = Math.floor(support.option("requests", 50));
/** The goal, reported (never enforced): the chart's page in under 50 ms. */
const GOAL_MS = 50;
/** The days the generated events spread over: the chart's 30-day window (ACTIVITY_WINDOW_DAYS). */
const DAYS = 30;

const importPresentation = (port, jar, title) => support.importMarkdown(port, jar, title, `# ${title}\n---\n# Two`);

const summary = support.timingSummary;

const timePages = (port, jar, paths, check) => support.timePages(port, jar, paths, check, REQUESTS);

async function timeQuery(client, sql, params) {
  const times = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const start = performance.now();
    await client.query(sql, params);
    if (i >= 5) times.push(performance.now() - start);
  }
  return summary(times);
}

/** The views part of the chart's query before issue 14: counted raw events by day. */
const RAW_VIEWS_SQL = `
  select (e.received_at at time zone 'UTC')::date as day, count(*)::int as n
    from usage_events e
   where e.counted_view and e.presentation_oid = $1
     and e.received_at >= ((now() at time zone 'UTC')::date - ${DAYS - 1})::timestamp at time zone 'UTC'
   group by 1`;

/** The views part of the chart's query now (features/dashboard/repository.ts): the per-day aggregate. */
const AGGREGATE_VIEWS_SQL = `
  select v.day, v.views from presentation_daily_views v join presentations p on p.id = v.presentation_id
   where p.oid = $1 and v.day >= (now() at time zone 'UTC')::date - ${DAYS - 1}`;

await support.runBench("chart", async () => {
  support.ensureBuild();
  const port = await support.freePort();
  const { database, owner } = await support.startOwnersPodium(port, "chart");
  const busy = await importPresentation(port, owner, "Busy");
  const quiet = await importPresentation(port, owner, "Quiet");

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  support.onCleanUp(() => client.end().catch(() => {}));
  console.log(`generating ${EVENTS.toLocaleString("en")} events over ${DAYS} days…`);
  const generateStart = performance.now();
  await client.query(
    `insert into usage_events (event_uid, received_at, session_id, event_name, presentation_oid, payload, visitor_key, address_key, counted_view)
     select gen_random_uuid(), ((now() at time zone 'UTC')::date - i % ${DAYS})::timestamp at time zone 'UTC' + (i % 86000) * interval '1 second',
            'bench-' || i, 'loaded_public_view_page', $1,
            jsonb_build_object('body', jsonb_build_object('event_name', 'loaded_public_view_page', 'oid', $1::text)),
            md5(i::text), md5((i % 5000)::text), true
       from generate_series(1, $2::int) as i`,
    [busy, EVENTS],
  );
  await client.query(
    `insert into presentation_daily_views (presentation_id, day, views)
     select p.id, (e.received_at at time zone 'UTC')::date, count(*)::int
       from usage_events e join presentations p on p.oid = e.presentation_oid
      where e.counted_view group by 1, 2`,
  );
  await client.query(`update presentations set view_count = $2 where oid = $1`, [busy, EVENTS]);
  // The index the raw-scan baseline used (0012 drops it: the chart no longer reads events).
  await client.query(
    "create index usage_events_counted_view_idx on usage_events (presentation_oid, received_at) where counted_view",
  );
  await client.query("vacuum analyze usage_events");
  await client.query("vacuum analyze presentation_daily_views");
  console.log(`generated in ${((performance.now() - generateStart) / 1000).toFixed(1)} s`);

  const expectViews = (which, body) => {
    if (which === 0 && !body.includes(EVENTS.toLocaleString("en"))) {
      throw new Error(`the busy presentation's page doesn't show its ${EVENTS} views`);
    }
  };
  const [busyPage, quietPage] = await timePages(
    port,
    owner,
    [`/dashboard/next/presentations/${busy}/`, `/dashboard/next/presentations/${quiet}/`],
    expectViews,
  );
  const aggregate = await timeQuery(client, AGGREGATE_VIEWS_SQL, [busy]);
  const rawScan = await timeQuery(client, RAW_VIEWS_SQL, [busy]);

  const [load1] = loadavg();
  console.log(
    `\nissue 14 item 5 — the owner's chart, ${EVENTS.toLocaleString("en")} events (PostgreSQL; load average ${load1.toFixed(2)})`,
  );
  const row = support.tableHeader(["measured", "median ms", "p95 ms"], [62, 10, 8]);
  const lines = [
    [`dashboard page with the chart, ${EVENTS.toLocaleString("en")} events (aggregates)`, busyPage],
    ["baseline: same page, a presentation without events", quietPage],
    ["the chart's views query now (aggregates)", aggregate],
    ["baseline: the chart's views query before issue 14 (raw scan)", rawScan],
  ];
  for (const [label, figures] of lines) console.log(row([label, support.ms(figures.median), support.ms(figures.p95)]));
  console.log(
    `\nratio page(1M events) / page(no events): ${(busyPage.median / quietPage.median).toFixed(2)}` +
      `; raw-scan query / aggregate query: ${(rawScan.median / aggregate.median).toFixed(0)}×` +
      `; goal < ${GOAL_MS} ms: ${busyPage.median < GOAL_MS ? "met" : "not met"} (median)`,
  );
});
