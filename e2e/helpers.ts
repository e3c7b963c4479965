import type { Locator, Page, Route } from "@playwright/test";
import { csrfToken, expect, sitemapPresentationUrls, waitForHydration } from "./support";

/**
 * Helpers several specs share (issue 31: each wrote them out). The fixtures stay in support.ts;
 * these take the page they work on.
 */

/** Sums the page's layout shifts (not those right after input), from its first paint on. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { total: 0 };
    (window as unknown as { __shifts: typeof state }).__shifts = state;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) state.total += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}
export const layoutShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shifts: { total: number } }).__shifts.total);

/**
 * Holds the requests matching `pattern` until `release()`: what they fetch arrives after the page,
 * as late as the test likes. `requests`: the paths asked for meanwhile.
 */
export async function holdRequests(page: Page, pattern: string) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const requests: string[] = [];
  await page.route(pattern, async (route: Route) => {
    requests.push(new URL(route.request().url()).pathname);
    await released;
    await route.continue();
  });
  return { requests, release };
}

/** Stands in for the phone's share sheet (navigator.share): what was shared is kept, for sharedData. */
export async function recordNativeShares(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shared: unknown[] = [];
    (window as unknown as { __shared: unknown[] }).__shared = shared;
    Object.defineProperty(navigator, "share", {
      configurable: true,
      value: async (data: unknown) => {
        shared.push(data);
      },
    });
  });
}
export const sharedData = (page: Page) => page.evaluate(() => (window as unknown as { __shared: unknown[] }).__shared);

/**
 * What the visitor sees on the stage: the current page's box, the stage's, and any other page
 * showing at 625 points over the stage (elementFromPoint honours the canvas's clip, as the eye does).
 */
export async function stageView(page: Page) {
  return page.evaluate(() => {
    const stage = document.querySelector(".viewer__stage")?.getBoundingClientRect();
    if (!stage) throw new Error("no stage");
    const centre = document.elementFromPoint(stage.left + stage.width / 2, stage.top + stage.height / 2);
    const current = centre?.closest(".topic--frame");
    if (!current) {
      // Say what is there instead, and the viewer's state, so a failure far away can be read.
      const viewer = document.querySelector<HTMLElement>(".viewer");
      const canvas = document.querySelector<HTMLElement>(".viewer__canvas");
      const trail: string[] = [];
      for (let node = centre; node && trail.length < 5; node = node.parentElement) {
        trail.push(`${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`);
      }
      throw new Error(
        `no page at the stage's centre: ${JSON.stringify({
          centre: trail.join(" < "),
          stage: [stage.left, stage.top, stage.width, stage.height].map(Math.round),
          viewer: viewer && { ...viewer.dataset, hidden: viewer.hidden },
          player: document.querySelector<HTMLElement>(".player")?.dataset.playerState,
          transform: canvas?.style.transform,
          computed: canvas && getComputedStyle(canvas).transform,
          clipPath: canvas?.style.clipPath,
          transition: canvas?.style.transitionDuration,
          animations: canvas?.getAnimations().map((animation) => ({
            play: animation.playState,
            current: animation.currentTime,
            start: animation.startTime,
            name: (animation as CSSTransition).transitionProperty,
          })),
          timeline: document.timeline.currentTime,
          visibility: document.visibilityState,
          fullscreen: document.fullscreenElement?.className ?? null,
          window: [innerWidth, innerHeight],
        })}`,
      );
    }
    const others = new Set<string>();
    for (let i = 0; i <= 24; i += 1) {
      for (let j = 0; j <= 24; j += 1) {
        const x = Math.min(stage.right - 1, stage.left + (stage.width * i) / 24);
        const y = Math.min(stage.bottom - 1, stage.top + (stage.height * j) / 24);
        const topic = document.elementFromPoint(x, y)?.closest(".topic--frame");
        if (topic && topic !== current) others.add((topic as HTMLElement).dataset.topicId ?? "?");
      }
    }
    const box = current.getBoundingClientRect();
    const round = (rect: DOMRect) => ({
      left: Math.round(rect.left),
      top: Math.round(rect.top),
      width: Math.round(rect.width),
      height: Math.round(rect.height),
    });
    return {
      stage: round(stage),
      page: round(box),
      inside:
        box.left >= stage.left - 1 &&
        box.right <= stage.right + 1 &&
        box.top >= stage.top - 1 &&
        box.bottom <= stage.bottom + 1,
      widthShare: box.width / stage.width,
      heightShare: box.height / stage.height,
      others: [...others],
      pageWidth: document.documentElement.scrollWidth,
      viewportWidth: document.documentElement.clientWidth,
    };
  });
}

/** The address of the demo presentation whose address contains `slugPart` (from the sitemap). */
export async function deckUrl(page: Page, slugPart: string): Promise<string> {
  const url = (await sitemapPresentationUrls(page)).find((u) => u.includes(slugPart));
  if (!url) throw new Error(`no demo presentation matching ${slugPart}`);
  return url;
}

/** A view page address's presentation id. */
export const oidOf = (url: string) => /\/p\/([a-z0-9]{12})\//.exec(url)?.[1] ?? "";

/** Opens that presentation's view page (at `hash`) and waits for hydration; returns its address. */
export async function openDeck(page: Page, slugPart: string, hash = ""): Promise<string> {
  const url = await deckUrl(page, slugPart);
  await page.goto(`${url}${hash}`);
  await waitForHydration(page);
  return url;
}

/** Opens `path` in a viewport of `size` and waits for hydration. */
export async function openAt(page: Page, path: string, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.goto(path);
  await waitForHydration(page);
}

/** Fills in the sign-up form on the page (a last name only if given; the tests' password) and sends it. */
export async function sendSignupForm(page: Page, person: { firstName: string; lastName?: string; email: string }) {
  await page.getByLabel("First name").fill(person.firstName);
  if (person.lastName !== undefined) await page.getByLabel("Last name").fill(person.lastName);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
}

/** How many of the elements `selector` finds in `card` stick out of its left or right side (half a pixel allowed). */
export function sticksOut(card: Locator, selector: string): Promise<number> {
  return card.evaluate((element, inside) => {
    const box = element.getBoundingClientRect();
    return [...element.querySelectorAll(inside)]
      .map((child) => child.getBoundingClientRect())
      .filter((rect) => rect.width > 0 && (rect.right > box.right + 0.5 || rect.left < box.left - 0.5)).length;
  }, selector);
}

/** How the element with keyboard focus shows it: whether it matches :focus-visible, has an outline, a box shadow. */
export async function focusIndicator(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return null;
    const style = getComputedStyle(element);
    return {
      focusVisible: element.matches(":focus-visible"),
      outline: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0,
      shadow: style.boxShadow !== "none",
    };
  });
}

/** The presentation id in a manage page's address (`/dashboard/next/presentations/<oid>/`); throws if there is none. */
export function manageOid(url: string): string {
  const oid = /presentations\/([a-z0-9]{12})\//.exec(url)?.[1];
  if (!oid) throw new Error(`no oid in ${url}`);
  return oid;
}

/** Imports a Markdown deck with the dashboard's form, as its signed-in owner does; the new deck's oid. */
export async function importMarkdownDeck(page: Page, file: { name: string; markdown: string }): Promise<string> {
  await page.goto("/dashboard/next/");
  await waitForHydration(page);
  await page.getByLabel("Markdown or JSON file").setInputFiles({
    name: file.name,
    mimeType: "text/markdown",
    buffer: Buffer.from(file.markdown),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Your presentation is imported.")).toBeVisible();
  return manageOid(page.url());
}

/**
 * Gives a Markdown file to the dashboard's drop zone (its first file input) and imports it; waits
 * for the deck's manage page (a large deck takes a while) and answers its oid.
 */
export async function dropMarkdownDeck(page: Page, file: { name: string; markdown: string }): Promise<string> {
  await page.goto("/dashboard/next/");
  await waitForHydration(page);
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: file.name, mimeType: "text/markdown", buffer: Buffer.from(file.markdown) });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/next\/presentations\/[a-z0-9]{12}\//, { timeout: 30_000 });
  return manageOid(page.url());
}

/** Uploads a PNG as the editor does (`POST /api/assets`, with the page's CSRF token); the image's address. */
export async function uploadImage(page: Page, name: string, png: Buffer): Promise<string> {
  const response = await page.request.post("/api/assets", {
    headers: { "X-XSRF-TOKEN": await csrfToken(page) },
    multipart: { file: { name, mimeType: "image/png", buffer: png } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { url: string }).url;
}

/**
 * Posts a deck file to the dashboard's import as its form does (with the page's CSRF token), for
 * tests whose subject comes after: expects the manage page (200) and answers the new deck's oid.
 */
export async function postDeck(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
  fields: { title?: string; privacy: "public" | "unlisted" | "private" },
): Promise<string> {
  const response = await page.request.post("/dashboard/next/import", {
    multipart: { _csrf: await csrfToken(page), title: "", schemaVersion: "2", ...fields, file },
  });
  expect(response.status(), (await response.text()).replace(/<[^>]+>/g, " ").slice(-800)).toBe(200);
  return manageOid(response.url());
}

/** postDeck for a presentation document (JSON). */
export const postJsonDeck = (
  page: Page,
  name: string,
  document: unknown,
  fields: { title?: string; privacy: "public" | "unlisted" | "private" },
) => postDeck(page, { name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(document)) }, fields);

/** A presentation document (JSON) of one title slide per title, in a row, played in order. */
export function titleSlidesDeck(titles: string[]) {
  return {
    format: "podium.presentation",
    version: 2,
    schemaVersion: "2",
    topics: titles.map((title, index) => ({
      id: `slide-${index + 1}`,
      x: index * 1800,
      y: 0,
      width: 1600,
      height: 900,
      rotation: 0,
      background: null,
      texts: [
        {
          id: `t-${index}`,
          styleClasses: ["title"],
          paragraphs: [{ text: title, listType: "NONE", biggestFontSize: 96 }],
        },
      ],
      images: [],
      topics: [],
    })),
    path: titles.map((_, index) => `slide-${index + 1}`),
  };
}
