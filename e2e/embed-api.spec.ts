import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { deckUrl, oidOf } from "./helpers";
import { E2E_BASE_PORT } from "./ports";
import { axeViolations, expect, logIn, sitemapPresentationUrls, test, waitForHydration } from "./support";

/**
 * Issue 34 "Embed anywhere". Host pages live on other origins: a tiny HTTP server of this spec on
 * E2E_PORT + 60 (the host site) and + 61 (another site), serving pages the tests write. The host
 * page embeds a deck with the code the embed dialog gives, drives it with the embed API's client
 * (/embed-api.js) from its own buttons and logs what it hears.
 */
const HOST_PORT = E2E_BASE_PORT + 60;
const OTHER_PORT = E2E_BASE_PORT + 61;
const HOST = `http://127.0.0.1:${HOST_PORT}`;
const OTHER = `http://127.0.0.1:${OTHER_PORT}`;

const pages = new Map<string, string>();
const servers: Server[] = [];

test.beforeAll(async () => {
  for (const port of [HOST_PORT, OTHER_PORT]) {
    const server = createServer((request, response) => {
      const html = pages.get(`${port}${request.url ?? ""}`);
      response.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
      response.end(html ?? "not found");
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    servers.push(server);
  }
});
test.afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The embed page's boot data (its deck's shape and steps). */
async function embedData(page: Page, oid: string): Promise<{ pageAspect: number; stepCount: number }> {
  const response = await page.request.get(`/p/embed/${oid}/`);
  const match = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(await response.text());
  if (!match?.[1]) throw new Error("no boot data");
  return JSON.parse(match[1]).data;
}

const deckOid = async (page: Page, slugPart: string) => oidOf(await deckUrl(page, slugPart));

/** A host page: the embed code, the client, its own buttons, and a log of what it hears. */
function hostPage(podium: string, code: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>A course page</title></head>
<body><main><h1>Week 3: gene editing</h1><p>Read the deck, then answer the quiz.</p>
${code}
<p><button id="prev">Back</button> <button id="next">Forward</button> <button id="go3">Go to 3</button>
<button id="last">Go to last</button> <button id="state">State</button>
<button id="go2state">Go to 2, then state</button></p>
<pre id="answer"></pre><ol id="log"></ol>
<iframe id="intruder" title="Someone else's widget" src="${OTHER}/intruder.html" width="10" height="10"></iframe>
</main>
<script src="${podium}/embed-api.js"></script>
<script>
  const frame = document.querySelector("iframe[src*='/p/embed/']");
  const deck = PodiumEmbed(frame);
  const log = (line) => { const li = document.createElement("li"); li.textContent = line; document.querySelector("#log").append(li); };
  for (const name of ["ready", "stepchange", "ended"]) deck.on(name, (s) => log(name + " " + s.step + "/" + s.total));
  const show = (value) => { document.querySelector("#answer").textContent = JSON.stringify(value); };
  document.querySelector("#prev").onclick = () => deck.prev();
  document.querySelector("#next").onclick = () => deck.next();
  document.querySelector("#go3").onclick = () => deck.goTo(3);
  document.querySelector("#last").onclick = () => deck.getState().then((s) => deck.goTo(s.total));
  document.querySelector("#state").onclick = () => deck.getState().then(show);
  document.querySelector("#go2state").onclick = () => deck.goTo(2).then(() => deck.getState()).then(show);
  // Every answer the frame sends, raw: the malformed requests below must get none.
  window.addEventListener("message", (event) => {
    if (event.source === frame.contentWindow && event.data && event.data.id) log("answer " + event.data.id);
    if (event.source !== frame.contentWindow && event.data === "intruder sent") log("intruder sent");
    if (event.source !== frame.contentWindow && event.data === "intruder answered") log("intruder answered");
  });
</script></body></html>`;
}

/** Another site's frame inside the host page: it tries to drive the deck beside it. */
const INTRUDER = `<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Widget</title></head><body><script>
  addEventListener("message", (event) => { if (event.data && event.data.id === "intruder") parent.postMessage("intruder answered", "*"); });
  addEventListener("message", (event) => {
    if (event.data !== "go") return;
    parent.frames[0].postMessage({ podium: 1, method: "next", id: "intruder" }, "*");
    parent.frames[0].postMessage({ podium: 1, method: "goTo", step: 2, id: "intruder" }, "*");
    parent.postMessage("intruder sent", "*");
  });
</script></body></html>`;

const logLines = (page: Page) => page.locator("#log li").allTextContents();

test.describe("issue 34: embed anywhere", () => {
  test("issue 34 items 1 3 4: a host site on another origin embeds the responsive code at 375 px and drives it with /embed-api.js", async ({
    page,
    baseURL,
  }) => {
    const oid = await deckOid(page, "crispr-basics");
    const { pageAspect, stepCount } = await embedData(page, oid);
    expect(stepCount).toBeGreaterThanOrEqual(4);

    // The code as the embed dialog gives it by default.
    await page.goto((await sitemapPresentationUrls(page)).find((u) => u.includes("crispr-basics")) ?? "");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Embed" }).click();
    const code = await page.getByRole("dialog", { name: "Embed" }).getByRole("textbox", { name: "Code" }).inputValue();
    expect(code).toMatch(/^<div style="position:relative;width:100%;height:0;padding-bottom:calc\([\d.]+% \+ 56px\)/);
    expect(code).not.toContain("<script");
    const padding = Number(/padding-bottom:calc\(([\d.]+)%/.exec(code)?.[1]);
    expect(Math.abs(padding - 100 / pageAspect)).toBeLessThan(0.01);

    pages.set(`${HOST_PORT}/course.html`, hostPage(baseURL ?? "", code));
    pages.set(`${OTHER_PORT}/intruder.html`, INTRUDER);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${HOST}/course.html`);
    await expect.poll(() => logLines(page)).toContain(`ready 1/${stepCount}`);

    // No sideways scroll on the phone; the deck fills the column at its own shape.
    const layout = await page.evaluate(() => {
      const frame = document.querySelector("iframe[src*='/p/embed/']") as HTMLIFrameElement;
      const box = frame.getBoundingClientRect();
      const column = (frame.closest("main") as HTMLElement).getBoundingClientRect();
      return {
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        width: box.width,
        height: box.height,
        column: column.width,
      };
    });
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    expect(Math.abs(layout.width - layout.column)).toBeLessThanOrEqual(1);
    // The frame is the page's shape plus the player's control bar (56 px) under it.
    expect(Math.abs(layout.height - (layout.width / pageAspect + 56))).toBeLessThanOrEqual(1);
    await page.screenshot({ path: "e2e/screenshots/embed-host-375.png" });

    // The host's own buttons: next starts at the first step, then moves; goTo jumps.
    await page.locator("#next").click();
    await expect.poll(() => logLines(page)).toContain(`stepchange 1/${stepCount}`);
    await page.locator("#next").click();
    await expect.poll(() => logLines(page)).toContain(`stepchange 2/${stepCount}`);
    await page.locator("#go3").click();
    await expect.poll(() => logLines(page)).toContain(`stepchange 3/${stepCount}`);
    const embedded = page.frameLocator("iframe[src*='/p/embed/']");
    await expect(embedded.locator(".viewer")).toHaveAttribute("data-current-step", "3");
    // Playing, the slides fill the frame's width at the deck's shape.
    const stage = await embedded.locator(".viewer__stage").boundingBox();
    expect(Math.abs((stage?.width ?? 0) - layout.width)).toBeLessThanOrEqual(1);
    expect(Math.abs((stage?.height ?? 0) - layout.width / pageAspect)).toBeLessThanOrEqual(1);
    // The host page keeps its focus (the embedded player doesn't take it).
    await expect(page.locator("#go3")).toBeFocused();
    await page.locator("#state").click();
    await expect(page.locator("#answer")).toHaveText(
      JSON.stringify({ step: 3, total: stepCount, playing: true, ended: false }),
    );

    // Malformed requests, then a good one: answers come in order, so once the good one is
    // answered, none of the others was (and the deck hasn't moved).
    await page.evaluate(() => {
      const frame = document.querySelector("iframe[src*='/p/embed/']") as HTMLIFrameElement;
      const target = frame.contentWindow as Window;
      for (const bad of [
        "next",
        { method: "next", id: "bad-no-namespace" },
        { podium: 2, method: "next", id: "bad-version" },
        { podium: 1, method: "eval", id: "bad-method", code: "document.body.remove()" },
        { podium: 1, method: "goTo", step: "1", id: "bad-step" },
        { podium: 1, method: "goTo", step: -1, id: "bad-negative" },
        '{"podium":1,"method":',
      ]) {
        target.postMessage(bad, "*");
      }
      target.postMessage({ podium: 1, method: "getState", id: "good" }, "*");
    });
    await expect.poll(() => logLines(page)).toContain("answer good");
    expect((await logLines(page)).filter((line) => line.startsWith("answer bad"))).toEqual([]);
    await expect(embedded.locator(".viewer")).toHaveAttribute("data-current-step", "3");

    // Another origin's frame in the same page posts to the deck: ignored, unanswered.
    await page.evaluate(() =>
      (document.querySelector("#intruder") as HTMLIFrameElement).contentWindow?.postMessage("go", "*"),
    );
    await expect.poll(() => logLines(page)).toContain("intruder sent");
    await page.evaluate(() => {
      const frame = document.querySelector("iframe[src*='/p/embed/']") as HTMLIFrameElement;
      frame.contentWindow?.postMessage({ podium: 1, method: "getState", id: "after-intruder" }, "*");
    });
    await expect.poll(() => logLines(page)).toContain("answer after-intruder");
    expect(await logLines(page)).not.toContain("intruder answered");
    expect(await logLines(page)).not.toContain("answer intruder");
    await expect(embedded.locator(".viewer")).toHaveAttribute("data-current-step", "3");

    // getSteps: a title for each step, nothing else.
    const steps = await page.evaluate(() =>
      (window as unknown as { PodiumEmbed: (f: Element) => { getSteps(): Promise<unknown> } })
        .PodiumEmbed(document.querySelector("iframe[src*='/p/embed/']") as Element)
        .getSteps(),
    );
    expect(Array.isArray(steps) && steps.length).toBe(stepCount);
    expect((steps as unknown[]).every((title) => typeof title === "string")).toBe(true);

    // A move's answer comes once the player has drawn it: the state asked right after says so.
    await page.locator("#go2state").click();
    await expect(page.locator("#answer")).toHaveText(
      JSON.stringify({ step: 2, total: stepCount, playing: true, ended: false }),
    );
    // To the last step, then past it: the host hears ended, and getState says so.
    await page.locator("#last").click();
    await expect.poll(() => logLines(page)).toContain(`stepchange ${stepCount}/${stepCount}`);
    await page.locator("#next").click();
    await expect.poll(() => logLines(page)).toContain(`ended ${stepCount}/${stepCount}`);
    await page.locator("#state").click();
    await expect(page.locator("#answer")).toHaveText(
      JSON.stringify({ step: stepCount, total: stepCount, playing: false, ended: true }),
    );
    await page.locator("#prev").click();
    await expect.poll(() => logLines(page)).toContain(`stepchange ${stepCount - 1}/${stepCount}`);
  });

  test("issue 34 item 2: the embed dialog's options write the code as they change", async ({ page }) => {
    const oid = await deckOid(page, "crispr-basics");
    const { stepCount } = await embedData(page, oid);
    await page.goto((await sitemapPresentationUrls(page)).find((u) => u.includes("crispr-basics")) ?? "");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Embed" }).click();
    const dialog = page.getByRole("dialog", { name: "Embed" });
    const code = dialog.getByRole("textbox", { name: "Code" });
    await expect(code).toHaveValue(new RegExp(`src="http://127\\.0\\.0\\.1:\\d+/p/embed/${oid}/"`));
    await dialog.getByRole("spinbutton", { name: /Start at step/ }).fill("3");
    await dialog.getByRole("checkbox", { name: "Play at once" }).check();
    await dialog.getByRole("checkbox", { name: "Show the controls" }).uncheck();
    await dialog.getByRole("combobox", { name: "Colours" }).selectOption("light");
    await expect(code).toHaveValue(
      new RegExp(`/p/embed/${oid}/\\?start=3&amp;autoplay=1&amp;controls=0&amp;chrome=light"`),
    );
    // A start past the end is the last step; the fixed size keeps the options.
    await dialog.getByRole("spinbutton", { name: /Start at step/ }).fill("999");
    await expect(code).toHaveValue(new RegExp(`\\?start=${stepCount}&amp;`));
    await dialog.getByRole("radio", { name: "Fixed size" }).check();
    await expect(code).toHaveValue(
      new RegExp(`^<iframe src="[^"]+\\?start=${stepCount}&amp;autoplay=1[^"]*" width="560"`),
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: "e2e/screenshots/embed-modal-options-375.png" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
  });

  test("issue 34 item 2: the embed page's options from its address; bad values are the defaults", async ({ page }) => {
    const oid = await deckOid(page, "crispr-basics");
    await page.goto(`/p/embed/${oid}/?start=2&autoplay=1&controls=0&chrome=light`);
    await waitForHydration(page);
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "2");
    await expect(page.locator(".viewer__controls")).toBeHidden();
    await expect(page.locator(".fullscreen-page--light")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`/p/embed/${oid}/?start=2&autoplay=1&chrome=light`);
    await waitForHydration(page);
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "2");
    await expect(page.locator(".viewer__controls")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`/p/embed/${oid}/?start=%3Cb%3E&autoplay=maybe&title=0`);
    await waitForHydration(page);
    await expect(page.locator(".player")).toHaveAttribute("data-player-state", "start");
    await expect(page.locator(".overlay__title")).toHaveCount(0);
    expect(await page.content()).not.toContain("<b>");
  });

  test("issue 34 item 3: a deck limited to one host frames there and refuses to frame elsewhere", async ({
    page,
    browser,
    baseURL,
  }) => {
    const oid = await deckOid(page, "the-water-cycle");
    await logIn(page, "tim@podium.test");
    await page.goto(`/dashboard/next/presentations/${oid}/`);
    await page.getByRole("textbox", { name: /Sites allowed to embed/ }).fill(`${HOST}\n`);
    await page.getByRole("button", { name: "Save embed sites" }).click();
    await expect(page.getByText("The sites that may embed this presentation are saved.")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    const embedUrl = `${baseURL}/p/embed/${oid}/`;
    const response = await page.request.get(embedUrl);
    expect(response.headers()["content-security-policy"]).toContain(`frame-ancestors 'self' ${HOST}`);

    const frameHtml = `<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Host</title></head><body>
<iframe title="deck" src="${embedUrl}" width="320" height="180"></iframe></body></html>`;
    pages.set(`${HOST_PORT}/allowed.html`, frameHtml);
    pages.set(`${OTHER_PORT}/elsewhere.html`, frameHtml);
    // A visitor of their own (the refused frame's console error is expected there).
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      await visitor.goto(`${HOST}/allowed.html`);
      await expect(visitor.frameLocator("iframe").locator(".player")).toBeVisible();
      await visitor.goto(`${OTHER}/elsewhere.html`);
      const frame = visitor.frames().find((candidate) => candidate !== visitor.mainFrame());
      await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
    } finally {
      await context.close();
    }

    // Emptied again, any site may embed it.
    await page.goto(`/dashboard/next/presentations/${oid}/`);
    await page.getByRole("textbox", { name: /Sites allowed to embed/ }).fill("");
    await page.getByRole("button", { name: "Save embed sites" }).click();
    await expect(page.getByText("The sites that may embed this presentation are saved.")).toBeVisible();
    expect((await page.request.get(embedUrl)).headers()["content-security-policy"]).toContain("frame-ancestors *");
  });

  test("issue 34 item 4: /developers/embed/ passes axe, fits 320–1600 px, and its buttons drive the live example", async ({
    page,
  }) => {
    await page.goto("/developers/embed/");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Embed API" })).toBeVisible();
    const state = page.getByTestId("embed-docs-state");
    await expect(state).toHaveText(/^Step 1 of \d+$/);
    await page.getByRole("button", { name: "Next step" }).click();
    await expect(state).toHaveText(/^Step 1 of \d+$/);
    await expect(page.getByTestId("embed-docs-log")).toContainText("stepchange: 1/");
    await page.getByRole("spinbutton", { name: "Step" }).fill("3");
    await page.getByRole("button", { name: "Go to step" }).click();
    await expect(state).toHaveText(/^Step 3 of \d+$/);
    await page.getByRole("button", { name: "Previous step" }).click();
    await expect(state).toHaveText(/^Step 2 of \d+$/);

    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(page), `axe at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: "e2e/screenshots/developers-embed-375.png", fullPage: true });
    for (let width = 320; width <= 1600; width += 16) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(async () => {
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return document.documentElement.scrollWidth - document.documentElement.clientWidth;
      });
      expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    }
  });

  test("issue 34 item 5: ?step=N plays that step; the share dialog links to the step playing", async ({ page }) => {
    const url = (await sitemapPresentationUrls(page)).find((u) => u.includes("crispr-basics")) ?? "";
    await page.goto(`${url}?step=3`);
    await waitForHydration(page);
    const viewer = page.locator(".player .viewer");
    await expect(viewer).toHaveAttribute("data-current-step", "3");
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${url}?step=3`);
    await page.keyboard.press("ArrowRight");
    await expect(viewer).toHaveAttribute("data-current-step", "4");
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    const stepLink = dialog.getByRole("checkbox", { name: "Link to step 4, where you are" });
    await expect(stepLink).toBeChecked();
    const link = dialog.getByRole("textbox", { name: "Link" });
    await expect(link).toHaveValue(`${url}?step=4`);
    expect(await axeViolations(page)).toEqual([]);
    await stepLink.uncheck();
    await expect(link).toHaveValue(url);
  });
});
