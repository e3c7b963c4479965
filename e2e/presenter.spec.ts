import type { Page } from "@playwright/test";
import { slideTopic } from "../src/document/markdown";
import { postJsonDeck } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/** Issue 10, item 1: speaker notes in a presenter view that steers the audience's player. */

const paragraph = (text: string, size: number, listType: "NONE" | "BULLET" = "NONE") => ({
  text,
  listType,
  biggestFontSize: size,
});

/** One 16:9 slide: a title, a subtitle or bullets, and speaker notes. */
function slide(index: number, title: string, body: { subtitle?: string; bullets?: string[] }, notes?: string) {
  const id = `slide-${index + 1}`;
  const texts = [{ id: `${id}-title`, styleClasses: ["title"], paragraphs: [paragraph(title, 96)] }];
  if (body.subtitle)
    texts.push({ id: `${id}-sub`, styleClasses: ["subtitle"], paragraphs: [paragraph(body.subtitle, 56)] });
  if (body.bullets)
    texts.push({
      id: `${id}-body`,
      styleClasses: ["body"],
      paragraphs: body.bullets.map((bullet) => paragraph(bullet, 40, "BULLET")),
    });
  return { ...slideTopic(id, index * 1800, 0, texts), ...(notes ? { notes } : {}) };
}

const DECK = {
  format: "podium.presentation",
  version: 2,
  schemaVersion: "2",
  topics: [
    slide(
      0,
      "Tide Pools",
      { subtitle: "A field guide for the low-tide walk" },
      "Welcome everyone, and thank them for coming out this early.\n\nAsk who has been to the rocks at low tide before: a show of hands sets the pace.",
    ),
    slide(
      1,
      "Who lives there",
      { bullets: ["Anemones", "Hermit crabs", "Sea stars", "Limpets"] },
      "Anemones first: they close when touched, so ask people to look, not poke.\n\nHermit crabs swap shells as they grow — the empty shells on the beach matter.",
    ),
    slide(
      2,
      "Read the tide table",
      { bullets: ["Go out an hour before low tide", "Turn back when the water turns"] },
      "Show the printed table. Point at tomorrow's low: 07:42, height 0.3 m.",
    ),
    slide(3, "Questions?", { subtitle: "Thank you" }),
  ],
  path: ["slide-1", "slide-2", "slide-3", "slide-4"],
};

/**
 * A deck of Tim's own with speaker notes, imported as a JSON document by the dashboard's import
 * (posted as its form posts, with the page's CSRF token).
 */
async function importDeckWithNotes(page: Page, privacy: "unlisted" | "private"): Promise<string> {
  await page.goto("/dashboard/next/");
  await waitForHydration(page);
  return postJsonDeck(page, "tide-pools.json", DECK, { privacy });
}

test.describe("issue 10 presenter view", () => {
  test("issue 10 presenter view: notes, next slide and timer in a second window that moves the audience's player and follows it", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    const oid = await importDeckWithNotes(page, "unlisted");

    await page.goto(`/p/${oid}/`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Present" }).click();
    const viewer = page.locator(".viewer");
    await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");
    await expect(viewer).toHaveAttribute("data-current-step", "1");
    await expect(page.locator("#viewer-keyboard-hint")).toContainText("Press P to open the presenter view");

    const button = page.getByRole("button", { name: "Presenter view" });
    await expect(button).toHaveAttribute("aria-keyshortcuts", "P");
    await page.screenshot({ path: "e2e/screenshots/presenter-audience.png" });

    // The button opens the presenter view in a second window.
    const opening = page.context().waitForEvent("page");
    await button.click();
    const presenter = await opening;
    const presenterProblems: string[] = [];
    presenter.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning")
        presenterProblems.push(`${message.type()}: ${message.text()}`);
    });
    presenter.on("pageerror", (error) => presenterProblems.push(`pageerror: ${error.message}`));
    await waitForHydration(presenter);
    expect(new URL(presenter.url()).pathname).toBe(`/p/presenter/${oid}/`);
    await expect(presenter).toHaveTitle("Presenter view: Tide Pools · Podium");
    await expect(presenter.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

    const root = presenter.locator(".presenter");
    const notes = presenter.getByTestId("presenter-notes");
    await expect(root).toHaveAttribute("data-load-status", "ready");
    await expect(presenter.getByRole("heading", { level: 1 })).toHaveAccessibleName("Presenter view: Tide Pools");
    await expect(presenter.getByText("Audience window connected")).toBeVisible();
    await expect(presenter.locator(".presenter__counter")).toHaveText("Slide 1 of 4");
    // Slide 1's notes, as paragraphs; the next slide's preview.
    await expect(notes.locator("p")).toHaveText([
      "Welcome everyone, and thank them for coming out this early.",
      "Ask who has been to the rocks at low tide before: a show of hands sets the pace.",
    ]);
    await expect(presenter.getByRole("img", { name: "Slide 1: Tide Pools" })).toBeVisible();
    await expect(presenter.getByRole("img", { name: "Slide 2: Who lives there" })).toBeVisible();

    // → in the presenter window moves the audience's player, and the notes change.
    await presenter.keyboard.press("ArrowRight");
    await expect(viewer).toHaveAttribute("data-current-step", "2");
    await expect(root).toHaveAttribute("data-current-step", "2");
    await expect(notes).toContainText("Anemones first: they close when touched");
    await expect(presenter.locator(".presenter__counter")).toHaveText("Slide 2 of 4");
    await expect(presenter.locator('[aria-live="polite"]').first()).toHaveText("Slide 2 of 4");

    // → in the audience window: the presenter view follows.
    await page.keyboard.press("ArrowRight");
    await expect(viewer).toHaveAttribute("data-current-step", "3");
    await expect(root).toHaveAttribute("data-current-step", "3");
    await expect(notes).toContainText("Point at tomorrow's low: 07:42");

    // The presenter's buttons move both too; the last slide has no notes and nothing after it.
    await presenter.getByRole("button", { name: "Next", exact: true }).click();
    await expect(viewer).toHaveAttribute("data-current-step", "4");
    await expect(notes).toHaveText("No notes for this slide.");
    await expect(presenter.locator(".presenter__stage--next")).toHaveText("End of presentation");
    await expect(presenter.getByRole("button", { name: "Next", exact: true })).toBeDisabled();
    await presenter.keyboard.press("Home");
    await expect(viewer).toHaveAttribute("data-current-step", "1");

    // The timer runs from the moment the view opened, pauses, resets and resumes.
    const timer = presenter.getByTestId("presenter-timer");
    await expect(timer).toHaveText(/^00:0[1-9]$/);
    await presenter.getByRole("button", { name: "Pause" }).click();
    await expect(presenter.getByRole("button", { name: "Resume" })).toBeVisible();
    await presenter.getByRole("button", { name: "Reset" }).click();
    await expect(timer).toHaveText("00:00");
    await presenter.getByRole("button", { name: "Resume" }).click();
    await expect(timer).toHaveText("00:01");
    await expect(presenter.locator(".presenter__clock time")).toHaveText(/^\d{1,2}:\d{2}/);

    expect(await axeViolations(presenter)).toEqual([]);
    await presenter.setViewportSize({ width: 1280, height: 760 });
    await presenter.keyboard.press("ArrowRight");
    await expect(viewer).toHaveAttribute("data-current-step", "2");
    await presenter.screenshot({ path: "e2e/screenshots/presenter-1280.png" });

    // A phone's width: one column, nothing wider than the screen.
    await presenter.setViewportSize({ width: 375, height: 812 });
    await expect(presenter.locator(".presenter__stage--current")).toBeVisible();
    expect(await presenter.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeViolations(presenter)).toEqual([]);
    await presenter.screenshot({ path: "e2e/screenshots/presenter-375.png", fullPage: true });
    await presenter.setViewportSize({ width: 320, height: 640 });
    expect(await presenter.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    // The audience window goes away: the presenter view says so and still works on its own.
    await page.goto("about:blank");
    await expect(presenter.getByText("No audience window connected")).toBeVisible();
    await presenter.keyboard.press("ArrowRight");
    await expect(root).toHaveAttribute("data-current-step", "3");
    await expect(notes).toContainText("Point at tomorrow's low");

    expect(presenterProblems, "console errors or warnings in the presenter window").toEqual([]);
  });

  test("issue 10 presenter view: P opens a private deck's presenter view for its owner at the audience's step; for others it is a 404", async ({
    page,
    browser,
    baseURL,
  }) => {
    await logIn(page, "tim@podium.test");
    const oid = await importDeckWithNotes(page, "private");
    expect((await page.request.get(`/p/presenter/${oid}/`)).status()).toBe(200);
    // P in the playing viewer opens it too, at the audience's step.
    await page.goto(`/p/${oid}/#step=2`);
    await waitForHydration(page);
    await expect(page.locator(".viewer")).toHaveAttribute("data-current-step", "2");
    const opening = page.context().waitForEvent("page");
    await page.keyboard.press("p");
    const presenter = await opening;
    await waitForHydration(presenter);
    expect(new URL(presenter.url()).pathname).toBe(`/p/presenter/${oid}/`);
    await expect(presenter.locator(".presenter")).toHaveAttribute("data-current-step", "2");
    await expect(presenter.getByTestId("presenter-notes")).toContainText("Anemones first");
    await presenter.close();
    // A stranger (no session) may not see the private import, nor its presenter view.
    const stranger = await browser.newContext();
    const response = await stranger.request.get(`${baseURL}/p/presenter/${oid}/`);
    expect(response.status()).toBe(404);
    await stranger.close();
  });
});

test.describe("issue 28 private speaker notes", () => {
  test("issue 28 private notes: the import result says the notes are private; a visitor gets neither notes nor presenter view; the owner publishes them in the editor", async ({
    page,
    browser,
  }) => {
    await logIn(page, "tim@podium.test");
    const oid = await importDeckWithNotes(page, "unlisted");
    // The import result (where the import lands): the notes' choice, private to begin with.
    await page.goto(`/dashboard/next/presentations/${oid}/?notice=created`);
    await waitForHydration(page);
    const choice = page.getByTestId("notes-choice");
    await expect(choice).toContainText("3 slides have speaker notes. They are private");
    await expect(page.getByLabel("Who reads the notes")).toHaveValue("private");
    expect(await axeViolations(page)).toEqual([]);

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/p/${oid}/`);
    await waitForHydration(visitor);
    await expect(visitor.getByText("Anemones first")).toHaveCount(0);
    await visitor.getByRole("button", { name: "Present" }).click();
    await expect(visitor.locator(".viewer")).toHaveAttribute("data-current-step", "1");
    await expect(visitor.getByRole("button", { name: "Presenter view" })).toHaveCount(0);
    const presenter = await visitor.request.get(`/p/presenter/${oid}/`, { maxRedirects: 0 });
    expect(presenter.status()).toBe(303);
    const documentJson = await (await visitor.request.get(`/p/${oid}/document.json`)).text();
    expect(documentJson).not.toContain("Anemones first");

    // Where the notes are written, the owner publishes them (saved with the slides).
    await page.goto(`/p/edit/${oid}/`);
    await waitForHydration(page);
    const select = page.getByLabel("Speaker notes");
    await expect(select).toHaveValue("private");
    expect(await axeViolations(page)).toEqual([]);
    await select.selectOption("public");
    await page.getByRole("button", { name: "Save" }).first().click();
    await expect(page.getByLabel("Speaker notes")).toHaveValue("public");

    // Published: the visitor reads them under the slides, as before; the presenter view stays the owner's.
    await visitor.goto(`/p/${oid}/`);
    await expect(visitor.getByText("Anemones first", { exact: false })).toHaveCount(1);
    expect((await visitor.request.get(`/p/presenter/${oid}/`, { maxRedirects: 0 })).status()).toBe(303);
    await visitorContext.close();
  });
});
