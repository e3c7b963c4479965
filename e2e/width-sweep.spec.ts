import type { Browser, Cookie, Page } from "@playwright/test";
import { stableOid } from "../src/lib/ids";
import {
  axeViolations,
  expect,
  type ShapedDecks,
  signInCookies,
  sitemapPresentationUrls,
  test,
  waitForHydration,
} from "./support";

/**
 * Issue 12 "Done when: width sweep": every page kind, signed in and out, at every width from
 * 320 to 1600 px in 16 px steps: no sideways scrolling, nothing of the header past the right
 * edge, and every header control on screen, on one line and the topmost thing at its centre (so a
 * tap reaches it). Each page is loaded once per signed state and resized through the widths.
 * Issue 28: the view page of a portrait PDF deck and of a mixed deck too.
 *
 * Issue 29: the tests only look, so they run in parallel over the workers.
 */
test.describe.configure({ mode: "parallel" });
const STEPS = Array.from({ length: (1600 - 320) / 16 + 1 }, (_, index) => 320 + index * 16);
/** The steps, plus 375 (the phone width of the screenshots and axe). */
const WIDTHS = [...new Set([...STEPS, 375])].sort((a, b) => a - b);
const HEIGHT = 900;
const AXE_WIDTHS = [375, 1440];
const SCREENSHOT_WIDTHS = [375, 768, 1440];

/** Ada's unlisted board update (README, demo accounts): the view-link page, and the deck she edits. */
const VIEW_LINK = "/view/demo-view-link-lumenly-board-update/";
/** Issue 33: Ada's deck's manage page: its analytics (drop-off, sources) and link settings. */
const MANAGE = `/dashboard/next/presentations/${stableOid("deck:lumenly-board-update-draft")}/`;

type Signed = "out" | "in";
interface PageKind {
  name: string;
  /** The address, found once (sitemap, the private header's Edit link). */
  url: string;
  /** Spec R2.20: a view link opens a full-screen player, with a header bar only for editors and commenters. */
  headerless?: true;
}

/** What is wrong at the current width (an empty list when nothing is). */
async function layoutProblems(page: Page, headerless: boolean): Promise<string[]> {
  return page.evaluate(async (headerless) => {
    // Layout and any resize listeners settle over two frames (a condition, not a sleep).
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const problems: string[] = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""}${element.textContent?.trim() ? ` "${element.textContent.trim().slice(0, 30)}"` : ""}`;
    /** Inside a scroller of its own (the trending terms): reachable by scrolling that row. */
    const inScroller = (element: Element, header: Element) => {
      for (let node = element.parentElement; node && node !== header; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === "auto" || overflow === "scroll") return node;
      }
      return null;
    };
    const isHiddenText = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return rect.width <= 1 && rect.height <= 1;
    };
    if (root.scrollWidth > width) {
      // Name the widest things that stick out (not those inside a sideways scroller of their own).
      const wide = [...document.body.querySelectorAll("*")]
        .filter((element) => element.getBoundingClientRect().right > width + 0.5 && element.checkVisibility())
        .filter((element) => {
          for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
            const overflow = getComputedStyle(node).overflowX;
            if (overflow !== "visible") return false;
          }
          return true;
        })
        .filter((element, _, all) => !all.some((other) => other !== element && element.contains(other)))
        .slice(0, 3)
        .map((element) => `${describe(element)} to ${Math.round(element.getBoundingClientRect().right)} px`);
      problems.push(`the page is ${root.scrollWidth} px wide in ${width} px: ${wide.join("; ")}`);
    }
    const headers = [...document.querySelectorAll("header.site-header, header.viewer-header, .private-header")];
    for (const header of headers) {
      if (!header.checkVisibility()) continue;
      for (const element of header.querySelectorAll("*")) {
        if (!element.checkVisibility() || isHiddenText(element)) continue;
        const scroller = inScroller(element, header);
        const rect = (scroller ?? element).getBoundingClientRect();
        if (rect.right > width + 0.5 || rect.left < -0.5) {
          problems.push(`${describe(element)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} px`);
        }
      }
      const controls = [...header.querySelectorAll<HTMLElement>("a[href], button, input, select")].filter(
        (element) => element.checkVisibility() && !isHiddenText(element),
      );
      for (const control of controls) {
        const scroller = inScroller(control, header);
        // In a scroller only the first entry must be on screen; the row scrolls to the others.
        if (scroller && scroller.querySelector("a[href], button") !== control) continue;
        const rect = control.getBoundingClientRect();
        const name = describe(control);
        if (rect.width < 1 || rect.height < 1) {
          problems.push(`${name} has no size`);
          continue;
        }
        if (rect.left < -0.5 || rect.right > width + 0.5 || rect.top < -0.5 || rect.bottom > window.innerHeight) {
          problems.push(`${name} is off screen (${Math.round(rect.left)}–${Math.round(rect.right)} px)`);
          continue;
        }
        const x = rect.left + rect.width / 2;
        const y = rect.top + rect.height / 2;
        const top = document.elementFromPoint(x, y);
        if (!top || !(control === top || control.contains(top) || top.contains(control))) {
          problems.push(`${name} is covered by ${top ? describe(top) : "nothing"}`);
        }
        // A link or button's words stay on one line ("Log in" wrapped onto two up to 767 px).
        const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          if (!text.textContent?.trim() || !text.parentElement?.checkVisibility()) continue;
          if (isHiddenText(text.parentElement)) continue;
          const range = document.createRange();
          range.selectNodeContents(text);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) problems.push(`${name}: "${text.textContent.trim()}" wraps onto ${lines.size} lines`);
        }
      }
    }
    const shown = headers.filter((header) => header.checkVisibility()).length;
    if (shown === 0 && !headerless) problems.push("no header is shown");
    if (shown > 0 && headerless) problems.push("a header is shown");
    return problems;
  }, headerless);
}

/** Ada's session and the addresses every test walks, found once per worker (`pagesToSweep`). */
let found: Promise<{ adaCookies: Cookie[]; kinds: Record<Signed, PageKind[]> }> | null = null;

/**
 * Signs Ada in once, and finds the addresses every test walks: the worker's server is the same
 * for all its tests, so the first test of each worker finds them for the others. Issue 28: the
 * view page of a portrait PDF deck (a long file-name title and a web address in its text, as
 * real documents have) and of a deck of mixed page shapes, from the worker's `shapedDecks`.
 */
function pagesToSweep(browser: Browser, baseURL: string, shapedDecks: ShapedDecks) {
  found ??= (async () => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const urls = await sitemapPresentationUrls(page);
    const viewPage = new URL(urls.find((url) => url.includes("sourdough-basics")) ?? urls[0] ?? "/").pathname;
    await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: baseURL }]);
    await signInCookies(page, "ada@podium.test");
    await page.goto(VIEW_LINK);
    await waitForHydration(page);
    const editor = await page.locator(".private-header").getByRole("link", { name: "Edit" }).getAttribute("href");
    expect(editor).toMatch(/^\/p\/edit\/[a-z0-9]{12}\/$/);
    // Issue 35: Ada goes live from her deck's presenter view; the follow page is a page of its own.
    const presenter = `/p/presenter/${stableOid("deck:lumenly-board-update-draft")}/`;
    await page.goto(presenter);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Go live" }).click();
    const code = ((await page.getByTestId("live-code").textContent()) ?? "").replace(/\s/g, "");
    expect(code).toMatch(/^[2-9A-Z]{8}$/);
    const adaCookies = await context.cookies();
    await context.close();
    const shared: PageKind[] = [
      { name: "home", url: "/" },
      { name: "view", url: viewPage },
      { name: "view-portrait-pdf", url: shapedDecks.portrait.url },
      { name: "view-mixed-pdf", url: shapedDecks.mixed.url },
      { name: "explore", url: "/explore/" },
      { name: "search", url: "/explore/search/?search=design" },
      // Issue 34: the embed API's documentation, with its live example.
      { name: "developers-embed", url: "/developers/embed/" },
    ];
    const kinds: Record<Signed, PageKind[]> = {
      out: [
        ...shared,
        { name: "view-link", url: VIEW_LINK, headerless: true },
        { name: "login", url: "/login/" },
        { name: "signup", url: "/signup/" },
        { name: "live-follow", url: `/live/${code}`, headerless: true },
        { name: "live-join", url: "/live/", headerless: true },
      ],
      in: [
        ...shared,
        // Ada may edit her deck: the private header bar with Edit (R2.20, R6.1).
        { name: "view-link", url: VIEW_LINK },
        { name: "dashboard", url: "/dashboard/next/" },
        { name: "manage", url: MANAGE },
        { name: "settings", url: "/settings/" },
        { name: "editor", url: editor ?? "" },
        { name: "presenter-live", url: presenter, headerless: true },
      ],
    };
    return { adaCookies, kinds };
  })();
  // A failed attempt is not kept: the next test tries again (and fails with its own error).
  found.catch(() => {
    found = null;
  });
  return found;
}

/** The pages swept signed in and signed out alike. */
const EITHER_WAY = [
  "home",
  "view",
  "view-portrait-pdf",
  "view-mixed-pdf",
  "view-link",
  "explore",
  "search",
  "developers-embed",
];
const PAGE_NAMES: Record<Signed, string[]> = {
  out: [...EITHER_WAY, "login", "signup", "live-follow", "live-join"],
  in: [...EITHER_WAY, "dashboard", "manage", "settings", "editor", "presenter-live"],
};

for (const signed of ["out", "in"] as const) {
  test.describe(`issue 12 width sweep, signed ${signed}`, () => {
    for (const name of PAGE_NAMES[signed]) {
      test(`R2.6 R2.33 issue 12 the ${name} page fits every width from 320 to 1600 px, its header whole`, async ({
        page,
        browser,
        baseURL,
        shapedDecks,
      }) => {
        test.setTimeout(120_000);
        const { adaCookies, kinds } = await pagesToSweep(browser, baseURL ?? "", shapedDecks);
        if (signed === "in") await page.context().addCookies(adaCookies);
        const kind = kinds[signed].find((candidate) => candidate.name === name);
        if (!kind) throw new Error(`no page ${name}`);
        await page.setViewportSize({ width: WIDTHS[0] ?? 320, height: HEIGHT });
        const response = await page.goto(kind.url);
        expect(response?.status()).toBe(200);
        await waitForHydration(page);
        const failures: string[] = [];
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT });
          for (const problem of await layoutProblems(page, kind.headerless === true))
            failures.push(`${width} px: ${problem}`);
          if (AXE_WIDTHS.includes(width)) {
            const violations = await axeViolations(page);
            for (const violation of violations) failures.push(`${width} px axe: ${violation}`);
          }
          if (SCREENSHOT_WIDTHS.includes(width)) {
            await page.screenshot({ path: `e2e/screenshots/sweep-${name}-${signed}-${width}.png`, fullPage: true });
          }
        }
        expect(failures).toEqual([]);
      });
    }
  });
}
