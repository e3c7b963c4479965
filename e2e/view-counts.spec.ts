import type { Browser, BrowserContext, Page } from "@playwright/test";
import { sendSignupForm } from "./helpers";
import { csrfToken, expect, recordUsageEvents, test, usageEvent, waitForHydration } from "./support";

/**
 * Issue 28 item 4, in Chromium against the built server: five browsers behind one address (every
 * e2e browser is at 127.0.0.1, all the same Chromium) each count one view, and the owner's own
 * visit counts none. A deck of the test's own, imported by a fresh owner: other specs' visits of
 * the demo decks from this same address don't touch its count or its address cap.
 */

/** Six browsers' page loads and a sign-up on a shared, loaded machine. */
const SLOW_TEST_MS = 180_000;

const DECK = "# Counting heads\n\nWho was here?\n\n---\n\n# Second slide\n\nStill here.\n";

async function signUpOwner(page: Page): Promise<void> {
  await page.goto(`/signup/?next=${encodeURIComponent("/dashboard/next/")}`);
  await waitForHydration(page);
  await sendSignupForm(page, { firstName: "Tally", lastName: "Counter", email: `counts.${Date.now()}@podium.test` });
  await expect(page).toHaveURL(/\/dashboard\/next\/$/);
}

/** Imports a public Markdown deck as the signed-in owner (the dashboard's import form's request); its oid. */
async function importDeck(page: Page, name: string): Promise<string> {
  const response = await page.request.post("/dashboard/next/import", {
    maxRedirects: 0,
    multipart: {
      _csrf: await csrfToken(page),
      privacy: "public",
      schemaVersion: "2",
      title: "",
      file: { name, mimeType: "text/markdown", buffer: Buffer.from(DECK) },
    },
  });
  expect(response.status()).toBe(303);
  const oid = /presentations\/([a-z0-9]{12})\//.exec(response.headers().location ?? "")?.[1];
  if (!oid) throw new Error(`no presentation in ${response.headers().location}`);
  return oid;
}

/** The deck's views so far, as its owner's page reads them (the chart's totals; not a cached page). */
async function viewsOf(owner: Page, oid: string): Promise<number> {
  const html = await (await owner.request.get(`/dashboard/next/presentations/${oid}/`)).text();
  const views = /"totals":\{"views":(\d+)/.exec(html)?.[1];
  if (views === undefined) throw new Error("no view totals on the owner's page");
  return Number(views);
}

/**
 * Opens the view page in `page` and waits until its loaded event has been answered by the server
 * (204: queued, so stored before anything sent after it: one process stores its queue in order).
 * Returns the event's body.
 */
async function loadViewPage(page: Page, oid: string): Promise<Record<string, unknown>> {
  await recordUsageEvents(page);
  const answered = page.waitForEvent(
    "requestfinished",
    (request) => request.method() === "POST" && new URL(request.url()).pathname === "/log/json",
  );
  await page.goto(`/p/${oid}/`);
  await waitForHydration(page);
  const event = await usageEvent(page, "loaded_public_view_page");
  // Chromium shows a beacon to Playwright as a request that finishes once the server has answered.
  expect((await (await answered).response())?.status()).toBe(204);
  return event.body;
}

/** A browser of its own (a fresh context: no cookies but the cookie choice), with its console errors. */
async function visitor(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext();
  await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { context, page, problems };
}

test("issue 28 item 4: five browsers behind one address each count once; the owner's own view counts none", async ({
  page,
  browser,
  baseURL,
}) => {
  // Six page loads in six browsers, on a machine other engineers' tests share.
  test.setTimeout(SLOW_TEST_MS);
  await signUpOwner(page);
  const oid = await importDeck(page, "counting-heads.md");
  // A second deck: its first view is the sign that everything sent before it is stored.
  const marker = await importDeck(page, "marker.md");
  expect(await viewsOf(page, oid)).toBe(0);

  const visitors = await Promise.all(Array.from({ length: 5 }, () => visitor(browser, baseURL ?? "")));
  try {
    for (const { page: theirs } of visitors) {
      const body = await loadViewPage(theirs, oid);
      // Each page load carries the visitor id the server signed for it.
      expect(body.visitor_id).toEqual(expect.stringMatching(/^v1\./));
    }
    await expect.poll(() => viewsOf(page, oid)).toBe(5);

    // The owner opens their own deck: the server gives them no visitor id, so no view.
    const own = await loadViewPage(page, oid);
    expect(own).not.toHaveProperty("visitor_id");
    // Then a visitor views the marker deck; once that counts, the owner's event (queued before it,
    // one process, stored in order) is stored too.
    const last = visitors[0]?.page;
    if (!last) throw new Error("no visitor");
    await loadViewPage(last, marker);
    await expect.poll(() => viewsOf(page, marker)).toBe(1);
    expect(await viewsOf(page, oid)).toBe(5);
    expect(visitors.flatMap(({ problems }) => problems)).toEqual([]);
  } finally {
    for (const { context } of visitors) await context.close();
  }
});
