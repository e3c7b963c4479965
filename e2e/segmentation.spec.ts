import { openAt, sendSignupForm } from "./helpers";
import { axeViolations, expect, test, waitForHydration } from "./support";

/** Spec §3 searchTerms (features/explore/search.ts): what a teacher and everyone else are offered. */
const TEACHER_TERMS = ["fractions", "water cycle", "study techniques", "lesson plan"];
const OTHER_TERMS = ["sourdough", "typography", "accessibility", "personal finance"];

test.describe("issue 13 sign-up after segmentation", () => {
  test("R2.8 Get started → choose Teacher → sign up → the editor of a new presentation; trending searches are the teacher's", async ({
    page,
  }) => {
    await openAt(page, "/explore/", { width: 1440, height: 900 });
    // Anonymous visitors count as other (their pages are cached without a segment).
    await expect(page.getByRole("navigation", { name: "Trending" }).getByRole("link")).toHaveText(OTHER_TERMS);

    await page.getByRole("link", { name: "Get started" }).click();
    await expect(page).toHaveURL(/\/signup\/$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("What will you use Podium for?");
    const choices = page.getByRole("group", { name: "Choose one" });
    await expect(choices.getByRole("radio")).toHaveCount(4);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/segmentation.png", fullPage: true });

    // Keyboard: Tab into the group, arrows move the choice, Space/Enter submit.
    await choices.getByRole("radio", { name: "Sales and marketing" }).focus();
    await page.keyboard.press("ArrowDown");
    const teacher = choices.getByRole("radio", { name: "Teacher" });
    await expect(teacher).toBeFocused();
    await expect(teacher).toBeChecked();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL((url) => {
      return (
        url.pathname === "/signup/" &&
        url.searchParams.get("next") === "/dashboard/next?after_segmentation_url=/v/create/"
      );
    });
    await waitForHydration(page);
    await sendSignupForm(page, { firstName: "Tess", lastName: "Hart", email: "tess.hart@podium.test" });

    await expect(page).toHaveURL(/\/v\/create\/$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Start a new presentation");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "e2e/screenshots/segmentation-create.png", fullPage: true });
    // Issue 28, item 3: the drop zone comes first; an empty presentation with a title is the second choice.
    await expect(page.getByLabel("Markdown or JSON file, or a PDF")).toBeVisible();
    await page.getByLabel("Title", { exact: true }).fill("Fractions for year five");
    await page.getByRole("button", { name: "Create presentation" }).click();

    await expect(page).toHaveURL(/\/p\/edit\/[a-z0-9]{12}\/$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fractions for year five");

    await page.goto("/explore/");
    await waitForHydration(page);
    await expect(page.getByRole("navigation", { name: "Trending" }).getByRole("link")).toHaveText(TEACHER_TERMS);
  });

  test("R2.8 the segmentation step at 375 px: axe clean, nothing wider than the screen, no answer is not sent", async ({
    page,
  }) => {
    await openAt(page, "/signup/", { width: 375, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: "e2e/screenshots/segmentation-375.png", fullPage: true });
    // Without a choice the browser asks for one (required radio group); nothing is sent.
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/signup\/$/);
    expect(
      await page
        .getByRole("radio", { name: "Teacher" })
        .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
    ).toBe(true);
  });
});
