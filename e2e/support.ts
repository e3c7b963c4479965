import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test as base, expect, type Page } from "@playwright/test";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * Every page test fails on a console error, a page error or a hydration warning: a page
 * that logs an error is broken even when it looks fine.
 */
export const test = base.extend<{ consoleProblems: string[]; cookieChoice: "performance" | "necessary" | null }>({
  /**
   * The cookie choice a test's visitor has already made: "necessary" by default, so the cookie
   * banner stays out of the way; tests of the banner itself use `test.use({ cookieChoice: null })`.
   */
  cookieChoice: ["necessary", { option: true }],
  context: async ({ context, cookieChoice, baseURL }, use) => {
    if (cookieChoice) {
      await context.addCookies([{ name: "podium_cookie_consent", value: cookieChoice, url: baseURL ?? "" }]);
    }
    await use(context);
  },
  consoleProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning")
          problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      await use(problems);
      expect(problems, "console errors or warnings on the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until React has hydrated the server-rendered page. */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Runs axe-core (WCAG 2.2 A and AA rules) in the page and returns its violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: Podium's CSP (rightly) refuses inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
  return violations;
}

/** The public presentation URLs the sitemap lists (how crawlers, and these tests, find them). */
export async function sitemapPresentationUrls(page: Page): Promise<string[]> {
  const response = await page.request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+\/p\/[^<]+)<\/loc>/g)].map((match) => match[1] ?? "");
}

/** Records usage events the page sends (beacon or fallback POST) in window.__podiumEvents. */
export async function recordUsageEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const events: unknown[] = [];
    (window as unknown as { __podiumEvents: unknown[] }).__podiumEvents = events;
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
      if (data instanceof Blob) void data.text().then((text) => events.push(...JSON.parse(text)));
      return beacon(url, data);
    };
  });
}

/** Waits until the page has sent a usage event with this name, and returns it. */
export async function usageEvent(page: Page, name: string): Promise<{ body: Record<string, unknown> }> {
  const handle = await page.waitForFunction(
    (eventName) =>
      (window as unknown as { __podiumEvents?: { body: { event_name: string } }[] }).__podiumEvents?.find(
        (event) => event.body.event_name === eventName,
      ),
    name,
  );
  return (await handle.jsonValue()) as { body: Record<string, unknown> };
}

/**
 * Signs a demo person in (password "podium-demo") as a fresh visitor who has already answered
 * the cookie banner, and waits for the dashboard.
 */
export async function logIn(page: Page, email: string): Promise<void> {
  await page.context().clearCookies();
  const baseURL = test.info().project.use.baseURL ?? "";
  await page.context().addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL }]);
  await page.goto("/login/");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("podium-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/dashboard/);
}

/** The CSRF token a signed-in page holds (its XSRF-TOKEN cookie), for API calls made by a test. */
export async function csrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN");
  if (!cookie) throw new Error("no CSRF cookie");
  return cookie.value;
}
