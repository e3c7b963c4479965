import { readFileSync } from "node:fs";
import type { BrowserContext } from "@playwright/test";
import { openDeck } from "./helpers";
import {
  axeViolations,
  expect,
  recordUsageEvents,
  sitemapPresentationUrls,
  test,
  usageEvent,
  waitForHydration,
} from "./support";

const USAGE_COOKIE = "podium_usage_session";
const CONSENT_COOKIE = "podium_cookie_consent";

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((c) => c.name === name) ?? null;
}

test.describe("cookie choices and the usage-session cookie", () => {
  test.use({ cookieChoice: null });

  test("R4.12 R9.12 asks first; allowing sets the 30-minute usage cookie that events carry; refusing removes it", async ({
    page,
    context,
  }) => {
    await recordUsageEvents(page);
    await openDeck(page, "personal-computing");
    const banner = page.getByRole("region", { name: "Cookie choices" });
    await expect(banner).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/cookie-banner.png" });
    // Not before a choice.
    await usageEvent(page, "loaded_public_view_page");
    expect(await cookie(context, USAGE_COOKIE)).toBeNull();

    // By keyboard.
    const allow = banner.getByRole("button", { name: "Allow" });
    await allow.focus();
    await page.keyboard.press("Enter");
    await expect(banner).toBeHidden();
    expect((await cookie(context, CONSENT_COOKIE))?.value).toBe("performance");
    const usage = await cookie(context, USAGE_COOKIE);
    if (!usage) throw new Error("no usage-session cookie after allowing performance cookies");
    const sessionId = (JSON.parse(decodeURIComponent(usage.value)) as { session_id: string }).session_id;
    expect(sessionId).toMatch(/^[0-9a-f]{24}$/);
    const minutesLeft = (usage.expires * 1000 - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(28);
    expect(minutesLeft).toBeLessThanOrEqual(30.5);

    // Events now carry the cookie's id, on this page and the next.
    await page.getByRole("button", { name: "See full transcript" }).click();
    const opened = (await usageEvent(page, "transcript_opened")) as unknown as {
      user: { session_id: string };
      platform: { id: string | null };
    };
    expect(opened.user.session_id).toBe(sessionId);
    expect(opened.platform.id).toBe(sessionId);
    await page.reload();
    await waitForHydration(page);
    await expect(banner).toBeHidden();
    const loaded = (await usageEvent(page, "loaded_public_view_page")) as unknown as { user: { session_id: string } };
    expect(loaded.user.session_id).toBe(sessionId);

    // Cookie settings in the footer asks again; refusing removes the cookie.
    await page.getByRole("button", { name: "Cookie settings" }).click();
    await expect(banner).toBeVisible();
    await expect(banner).toBeFocused();
    await banner.getByRole("button", { name: "Necessary only" }).click();
    await expect(banner).toBeHidden();
    expect((await cookie(context, CONSENT_COOKIE))?.value).toBe("necessary");
    expect(await cookie(context, USAGE_COOKIE)).toBeNull();
    await expect(page.getByRole("button", { name: "Cookie settings" })).toBeFocused();
  });

  test("R4.12 embed mode never touches cookies, even with performance cookies allowed", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: CONSENT_COOKIE, value: "performance", url: baseURL ?? "" }]);
    const url = (await sitemapPresentationUrls(page))[0] ?? "";
    const oid = /\/p\/([^/]+)\//.exec(url)?.[1];
    if (!oid) throw new Error("no presentation in the sitemap");
    await page.goto(`/p/embed/${oid}/`);
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("data-cookies", "off");
    await expect(page.getByRole("region", { name: "Cookie choices" })).toHaveCount(0);
    await page
      .getByRole("button", { name: /Present/ })
      .first()
      .click();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(await cookie(context, USAGE_COOKIE)).toBeNull();
  });
});

test.describe("languages", () => {
  test("R9.14 R9.15 the footer's language picker shows the page in that language and remembers it", async ({
    page,
    context,
  }) => {
    await openDeck(page, "personal-computing");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByLabel("Language").selectOption("de");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await waitForHydration(page);
    expect((await cookie(context, "language"))?.value).toBe("de");
    const german = JSON.parse(readFileSync("src/i18n/messages/de.json", "utf8")) as Record<string, string>;
    await expect(page.getByRole("button", { name: german["transcript.seeFull"] })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/view-page-de.png" });
    for (const [locale, lang] of [
      ["ja", "ja"],
      ["ko", "ko"],
    ] as const) {
      await page.locator("select.language-picker__select").selectOption(locale);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await waitForHydration(page);
      expect(await axeViolations(page)).toEqual([]);
    }
  });
});
