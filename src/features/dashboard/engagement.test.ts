import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { TEST_CONFIG, TestAgent, useTestApp } from "../../server/testing";
import { STAY_TIME_BUCKETS_MS, STEP_ENGAGEMENT_EVENT, type StepBatch } from "../events/step-engagement";
import { storeEventBatch } from "../events/store-batch";
import { acceptedEvent, postStepBatch } from "../events/testing";
import { createVisitorIds } from "../events/visitor-id";

const DECK = "# One\n---\n# Two\n---\n# Three\n---\n# Four";

/** The figures of the owner's analytics table, per step: reached, median (ms), back. */
function tableOf(html: string) {
  const rows = [...html.matchAll(/<tr data-step="(\d+)">([\s\S]*?)<\/tr>/g)];
  return rows.map(([, step, cells]) => ({
    step: Number(step),
    reached: Number(/data-figure="reached">([\d,]+)</.exec(cells ?? "")?.[1]?.replace(/,/g, "")),
    medianMs: Number(/data-ms="([\d.]*)"/.exec(cells ?? "")?.[1] || Number.NaN),
    backs: Number(/data-figure="backs">([\d,]+)</.exec(cells ?? "")?.[1]?.replace(/,/g, "")),
  }));
}
const figure = (html: string, name: string) => new RegExp(`data-figure="${name}">(.*?)</dd>`).exec(html)?.[1] ?? "";

/**
 * Issue 33 item 1: step events go through the usage-event intake and pipeline into per-day
 * aggregates, and the owner's analytics shows the drop-off, medians, going back, completion and
 * viewing time per audience (everyone, the public page, each view link).
 */
describe.each(testDatabaseTargets())("I33.1 per-step engagement on $name", (target) => {
  const t = useTestApp(target, { owner: "owner@engagement.test" });
  let oid = "";
  let linkId = "";
  beforeAll(async () => {
    oid = await t.owner.newDeck({ name: "four.md", content: DECK }, { privacy: "unlisted" });
    linkId = await t.owner.newViewLink(oid, "Investor: Acme");
  });

  // A visitor who allowed performance cookies (issue 33 item 6) and whose page load was given its
  // visitor id ten minutes ago (issue 33: its stays may claim up to that much time).
  const visitorIds = createVisitorIds(TEST_CONFIG.secret ?? "");
  const send = (session: string, batch: StepBatch) =>
    postStepBatch(t.app, { oid, session, batch, visitorId: visitorIds.issue(oid, session, Date.now() - 10 * 60_000) });

  it("I33.1 three visits (one to the end, one to step 3 with a step back, one through a view link) show as 3 → 3 → 2 → 2, with medians, back-navigation, completion and viewing time", async () => {
    // Visit A, public, to the end: 2 s, 4 s, 6 s, 8 s.
    expect(
      (
        await send("a", {
          stays: [
            { s: 0, ms: 2_000, f: 1 },
            { s: 1, ms: 4_000, f: 1 },
          ],
        })
      ).statusCode,
    ).toBe(204);
    await send("a", {
      stays: [
        { s: 2, ms: 6_000, f: 1 },
        { s: 3, ms: 8_000, f: 1 },
      ],
      visit_ms: 20_000,
    });
    // Visit B, public, to step 3 and back to step 2.
    await send("b", {
      stays: [
        { s: 0, ms: 3_000, f: 1 },
        { s: 1, ms: 5_000, f: 1 },
        { s: 2, ms: 7_000, f: 1 },
        { s: 1, ms: 1_000, b: 1 },
      ],
      visit_ms: 16_000,
    });
    // Visit C, through the view link: steps 1 and 2, then to the end.
    await send("c", {
      link: linkId,
      stays: [
        { s: 0, ms: 2_500, f: 1 },
        { s: 1, ms: 4_500, f: 1 },
        { s: 3, ms: 9_000, f: 1 },
      ],
      visit_ms: 16_000,
    });
    // A link of no presentation of this owner's is left out; a malformed batch is refused.
    expect((await send("d", { link: "x".repeat(32), stays: [{ s: 0, ms: 1_000, f: 1 }] })).statusCode).toBe(204);
    expect((await send("e", { stays: [{ s: 1.5, ms: 1_000 }] } as unknown as StepBatch)).statusCode).toBe(400);
    expect((await send("e", { stays: [{ s: 0, ms: -1 }] })).statusCode).toBe(400);
    await t.app.usageEvents.flush();

    const all = (await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body;
    expect(tableOf(all).map((row) => row.reached)).toEqual([3, 3, 2, 2]);
    expect(tableOf(all).map((row) => row.backs)).toEqual([0, 1, 0, 0]);
    // Medians within a second of the real ones (1 s buckets).
    const medians = tableOf(all).map((row) => row.medianMs);
    for (const [index, real] of [2_500, 4_500, 6_500, 8_500].entries()) {
      expect(Math.abs((medians[index] ?? 0) - real)).toBeLessThanOrEqual(1_000);
    }
    expect(figure(all, "visits")).toBe("3");
    expect(figure(all, "completion")).toBe("67%");
    expect(all).toContain("Investor: Acme");

    const publicPage = (await t.owner.get(`/dashboard/next/presentations/${oid}/?audience=public&days=7`)).body;
    expect(tableOf(publicPage).map((row) => row.reached)).toEqual([2, 2, 2, 1]);
    expect(figure(publicPage, "completion")).toBe("50%");
    const viaLink = (await t.owner.get(`/dashboard/next/presentations/${oid}/?audience=${linkId}`)).body;
    expect(tableOf(viaLink).map((row) => row.reached)).toEqual([1, 1, 0, 1]);
    expect(figure(viaLink, "completion")).toBe("100%");
    expect(viaLink).toContain("100% watched to the end");
    // 16 s, read from its 1 s bucket.
    expect(figure(viaLink, "median-visit")).toMatch(/^16(\.\d)? s$/);

    const reachedInAll = async () =>
      (
        await t.db.query<{ n: number }>(
          "select sum(reached)::int as n from presentation_step_daily d join presentations p on p.id = d.presentation_id where p.oid = $1",
          [oid],
        )
      )[0]?.n;
    expect(await reachedInAll()).toBe(10);
    // The same event delivered twice (the pipeline may redeliver a batch) is counted once.
    const event = acceptedEvent({ oid, eventName: STEP_ENGAGEMENT_EVENT });
    event.payload = JSON.stringify({
      body: { event_name: STEP_ENGAGEMENT_EVENT, oid, stays: [{ s: 0, ms: 1_000, f: 1 }] },
    });
    await storeEventBatch(t.db, [event]);
    await storeEventBatch(t.db, [event]);
    expect(await reachedInAll()).toBe(11);
    await t.db.query(
      "update presentation_step_daily set reached = reached - 1, stays = stays - 1, total_ms = total_ms - 1000 where step = 0 and link_id = '' and presentation_id = (select id from presentations where oid = $1)",
      [oid],
    );
    await t.db.query(
      "update presentation_step_times set n = n - 1 where step = 0 and link_id = '' and bucket = $2 and presentation_id = (select id from presentations where oid = $1)",
      [oid, STAY_TIME_BUCKETS_MS.filter((bound) => bound <= 1_000).length],
    );
  });

  it("I33.1 the aggregates outlive the raw events: pruning usage events leaves the analytics as they were", async () => {
    await t.db.query("delete from usage_events where presentation_oid = $1", [oid]);
    const page = (await t.owner.get(`/dashboard/next/presentations/${oid}/`)).body;
    expect(tableOf(page).map((row) => row.reached)).toEqual([3, 3, 2, 2]);
  });

  it("I33.5 the owner downloads the analytics as CSV (steps, summary, sources, days); a formula in a link's name is defused; nobody else gets it", async () => {
    const csv = await t.owner.get(`/dashboard/next/presentations/${oid}/analytics.csv?days=30&audience=all`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(`attachment; filename="podium-analytics-${oid}.csv"`);
    const lines = csv.body.split("\r\n");
    expect(lines[0]).toBe("section,audience,item,reached,share_of_started,median_seconds,went_back,count");
    expect(lines.filter((line) => line.startsWith("steps,all,")).map((line) => line.split(",")[3])).toEqual([
      "3",
      "3",
      "2",
      "2",
    ]);
    expect(lines).toContain("summary,all,visits,,,,,3");
    expect(lines).toContain("summary,all,completion_rate,,,,,0.667");
    expect(lines.filter((line) => line.startsWith("views,all,"))).toHaveLength(30);
    // The owner's own text can't run as a formula in a spreadsheet.
    expect(
      (
        await t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {
          name: '=HYPERLINK("https://evil.example","x")',
          expiresOn: "",
          passcode: "",
          enabled: "on",
        })
      ).statusCode,
    ).toBe(303);
    const viaLink = await t.owner.get(`/dashboard/next/presentations/${oid}/analytics.csv?audience=${linkId}`);
    expect(viaLink.body).toContain(`steps,"'=HYPERLINK(""https://evil.example"",""x"")",1,1,`);
    // Signed out: to the login page; another person: not found.
    expect((await new TestAgent(t.app).get(`/dashboard/next/presentations/${oid}/analytics.csv`)).statusCode).toBe(303);
    const stranger = new TestAgent(t.app);
    await stranger.signUp("stranger@engagement.test");
    expect([403, 404]).toContain((await stranger.get(`/dashboard/next/presentations/${oid}/analytics.csv`)).statusCode);
  });

  it("I33.3 a view link turned off answers events as if it didn't exist: step events through it are left out", async () => {
    const settings = (enabled: string) =>
      t.owner.postForm(`/dashboard/next/presentations/${oid}/view-links/${linkId}/settings`, {
        name: "Investor: Acme",
        expiresOn: "",
        passcode: "",
        enabled,
      });
    expect((await settings("")).statusCode).toBe(303);
    await send("f", { link: linkId, stays: [{ s: 0, ms: 1_000, f: 1 }] });
    await t.app.usageEvents.flush();
    const viaLink = (await t.owner.get(`/dashboard/next/presentations/${oid}/?audience=${linkId}`)).body;
    expect(tableOf(viaLink).map((row) => row.reached)).toEqual([1, 1, 0, 1]);
    expect((await settings("on")).statusCode).toBe(303);
  });
});
