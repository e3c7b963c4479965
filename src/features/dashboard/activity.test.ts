import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { insertTestDeck, insertTestUser } from "../../server/testing";
import { storeEventBatch } from "../events/store-batch";
import { acceptedEvent } from "../events/testing";
import { findPresentationByOid } from "../presentation/repository";
import { ACTIVITY_WINDOW_DAYS, findDailyActivity } from "./repository";

const chartedOid = stableOid("activity:charted");
const otherOid = stableOid("activity:other");

async function addUser(db: Database, key: string) {
  return insertTestUser(db, {
    oid: stableOid(`activity:user:${key}`),
    email: `${key}@activity.test`,
    username: `activity-${key}`,
    firstName: "Activity",
    lastName: key,
  });
}

/** A view page loaded by a visitor (one browser at one address) at a time, as the event pipeline stores it. */
function loadViewPage(db: Database, oid: string, visitor: string, at?: string) {
  return storeEventBatch(db, [
    acceptedEvent({ oid, at, sessionId: visitor, address: `198.51.100.${visitor.slice(1)}` }),
  ]);
}

describe.each(testDatabaseTargets())("views and likes by day on $name", (target) => {
  let db: Database;
  let drop: () => Promise<void>;
  let charted: { id: string; oid: string };
  let other: { id: string; oid: string };

  const like = async (userKey: string, presentationId: string, at: string) => {
    const user = await addUser(db, userKey);
    await db.query("insert into likes (user_id, presentation_id, created_at) values ($1, $2, $3::timestamptz)", [
      user.id,
      presentationId,
      at,
    ]);
  };

  beforeAll(async () => {
    ({ db, drop } = await target.create());
    const owner = await addUser(db, "owner");
    for (const oid of [chartedOid, otherOid]) {
      await insertTestDeck(db, {
        oid,
        ownerId: owner.id,
        title: `Deck ${oid}`,
      });
    }
    const rows = await Promise.all([findPresentationByOid(db, chartedOid), findPresentationByOid(db, otherOid)]);
    if (!rows[0] || !rows[1]) throw new Error("test presentations missing");
    charted = rows[0];
    other = rows[1];

    // Views: s1 twice within 30 minutes (one view, the second one past midnight), s2 once, just
    // after midnight of the next day; the other presentation's views on the same days.
    await loadViewPage(db, chartedOid, "s1", "2025-03-10T23:59:00Z");
    await loadViewPage(db, chartedOid, "s1", "2025-03-11T00:10:00Z");
    await loadViewPage(db, chartedOid, "s2", "2025-03-11T00:00:00Z");
    await loadViewPage(db, otherOid, "s1", "2025-03-10T12:00:00Z");
    await loadViewPage(db, otherOid, "s3", "2025-03-11T12:00:00Z");
    // Likes: two on the 11th, one on the 9th, one long before the window; the other deck's on the 11th.
    await like("a", charted.id, "2025-03-09T08:00:00Z");
    await like("b", charted.id, "2025-03-11T07:30:00Z");
    await like("c", charted.id, "2025-03-11T23:59:59Z");
    await like("d", charted.id, "2025-01-01T12:00:00Z");
    await like("e", other.id, "2025-03-11T12:00:00Z");
    await like("f", other.id, "2025-03-12T12:00:00Z");
  });
  afterAll(() => drop());

  it("issue 14 item 4 marks only the events that counted a view, and the view count agrees", async () => {
    const marks = await db.query<{ session_id: string; counted_view: boolean }>(
      "select session_id, counted_view from usage_events where presentation_oid = $1 order by id",
      [chartedOid],
    );
    expect(marks).toEqual([
      { session_id: "s1", counted_view: true },
      { session_id: "s1", counted_view: false },
      { session_id: "s2", counted_view: true },
    ]);
    expect((await findPresentationByOid(db, chartedOid))?.viewCount).toBe(2);
  });

  it("issue 14 item 5 draws a counted view on its UTC day (from the per-day aggregate), not a repeat within 30 minutes; likes by day; zeros between", async () => {
    const activity = await findDailyActivity(db, charted, { lastDay: "2025-03-12", days: 5 });
    expect(activity.days).toEqual([
      { day: "2025-03-08", views: 0, likes: 0 },
      { day: "2025-03-09", views: 0, likes: 1 },
      { day: "2025-03-10", views: 1, likes: 0 },
      { day: "2025-03-11", views: 1, likes: 2 },
      { day: "2025-03-12", views: 0, likes: 0 },
    ]);
    expect(activity.totals).toEqual({ views: 2, likes: 3 });
  });

  it("keeps another presentation's views and likes out", async () => {
    const activity = await findDailyActivity(db, other, { lastDay: "2025-03-12", days: 5 });
    expect(activity.days.filter((d) => d.views > 0 || d.likes > 0)).toEqual([
      { day: "2025-03-10", views: 1, likes: 0 },
      { day: "2025-03-11", views: 1, likes: 1 },
      { day: "2025-03-12", views: 0, likes: 1 },
    ]);
  });

  it("counts a window's first and last day whole, and nothing outside it", async () => {
    const activity = await findDailyActivity(db, charted, { lastDay: "2025-03-10", days: 2 });
    expect(activity.days).toEqual([
      { day: "2025-03-09", views: 0, likes: 1 },
      { day: "2025-03-10", views: 1, likes: 0 },
    ]);
    const quiet = await findDailyActivity(db, charted, { lastDay: "2025-02-20", days: 3 });
    expect(quiet).toEqual({
      days: [
        { day: "2025-02-18", views: 0, likes: 0 },
        { day: "2025-02-19", views: 0, likes: 0 },
        { day: "2025-02-20", views: 0, likes: 0 },
      ],
      totals: { views: 0, likes: 0 },
    });
  });

  it("by default covers the last 30 days up to today (UTC), where a view counted now appears", async () => {
    await loadViewPage(db, chartedOid, "s4");
    // One transaction: now() is the same instant for "today" and for the window.
    const { today, activity } = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ today: string }>(
        "select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as today",
      );
      return { today: row?.today, activity: await findDailyActivity(tx, charted) };
    });
    expect(activity.days).toHaveLength(ACTIVITY_WINDOW_DAYS);
    expect(activity.days.at(-1)).toEqual({ day: today, views: 1, likes: 0 });
    const dates = activity.days.map((d) => Date.parse(`${d.day}T00:00:00Z`));
    expect(dates.every((date, i) => i === 0 || date - (dates[i - 1] ?? 0) === 24 * 60 * 60 * 1000)).toBe(true);
  });
});
