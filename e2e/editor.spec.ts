import type { Page } from "@playwright/test";
import { focusIndicator } from "./helpers";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/** Ada's unlisted pitch deck; Grace may comment on it (README, demo accounts). */
const BOARD_UPDATE_LINK = "/view/demo-view-link-lumenly-board-update/";

/** The element with keyboard focus shows a visible focus indicator. */
async function expectVisibleFocus(page: Page) {
  const focus = await focusIndicator(page);
  expect(focus?.focusVisible).toBe(true);
  expect(focus?.outline || focus?.shadow).toBe(true);
}

test.describe("the editor", () => {
  test("R2.12 R6.1 the owner opens the editor from the view page, edits the Markdown, sees the preview follow, saves, and the view page shows it", async ({
    page,
    consoleProblems,
  }) => {
    await logIn(page, "ada@podium.test");
    await page.goto(BOARD_UPDATE_LINK);
    await waitForHydration(page);
    await page.locator(".private-header").getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(/\/p\/edit\/[a-z0-9]{12}\/$/);
    await waitForHydration(page);
    await expect(page.locator("[data-editor-mode]")).toHaveAttribute("data-editor-mode", "editor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lumenly Board Update (Draft)");
    expect(await axeViolations(page)).toEqual([]);

    const markdown = page.getByLabel("Slides in Markdown");
    const source = await markdown.inputValue();
    expect(source).toContain("## Appendix");
    const preview = page.locator(".editor-preview");
    await expect(preview.getByText("Approve the plan to hire two senior engineers in Q4")).toBeVisible();
    await expect(preview.getByTestId("preview-count")).toHaveText("6 slides");

    // Typing changes the preview a moment later: a new bullet, then a new slide.
    await markdown.fill(`${source.trimEnd()}\n- Board dinner moved to Thursday\n`);
    await expect(preview.getByText("Board dinner moved to Thursday")).toBeVisible();
    await expect(preview.getByTestId("preview-count")).toHaveText("6 slides");
    await markdown.press("End");
    await markdown.pressSequentially("---\n# Questions");
    await expect(preview.getByTestId("preview-count")).toHaveText("7 slides");
    await expect(preview.getByText("Questions", { exact: true })).toBeVisible();
    // Markdown the importer refuses says so in the preview.
    const edited = await markdown.inputValue();
    await markdown.fill("   ");
    await expect(preview.getByText("The Markdown has no slides")).toBeVisible();
    await markdown.fill(edited);
    await expect(preview.getByTestId("preview-count")).toHaveText("7 slides");
    await preview.getByText("Questions", { exact: true }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "e2e/screenshots/editor.png" });

    // Refused Markdown comes back with its message on the field, and nothing is saved.
    await markdown.fill("   ");
    await page.locator(".editor__actions").getByRole("button", { name: "Save changes" }).click();
    await expect(page.locator("#editor-markdown-error")).toHaveText(
      "The Markdown has no slides: write at least one line of text.",
    );
    await waitForHydration(page);
    await expect(page.getByLabel("Slides in Markdown")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: "Nothing was saved." })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    // The browser reports the 400 answer itself; that one is expected.
    const refused = consoleProblems.findIndex((problem) => problem.includes("status of 400"));
    if (refused >= 0) consoleProblems.splice(refused, 1);
    await page.getByLabel("Slides in Markdown").fill(edited);

    // Keyboard: from the tags field, Tab reaches the (scrollable) preview, then Save with a
    // visible focus ring, and Enter saves.
    await page.getByLabel("Tags").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("region", { name: "Preview" })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Tab");
    await expect(page.locator(".editor-form__bar").getByRole("button", { name: "Save changes" })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\?notice=saved$/);
    await waitForHydration(page);
    await expect(page.getByRole("status").filter({ hasText: "Your changes are saved." })).toBeVisible();
    await expect(page.getByLabel("Slides in Markdown")).toHaveValue(/Board dinner moved to Thursday/);

    // The editor's Comment switch opens commenting mode in place, and Edit comes back.
    await page.getByRole("navigation", { name: "Editor mode" }).getByRole("link", { name: "Comment" }).click();
    await expect(page.locator("[data-editor-mode]")).toHaveAttribute("data-editor-mode", "commenting");
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await page.getByRole("navigation", { name: "Editor mode" }).getByRole("link", { name: "Edit" }).click();
    await expect(page.locator("[data-editor-mode]")).toHaveAttribute("data-editor-mode", "editor");
    // Unsaved edits survive a look at the comments.
    await page.getByLabel("Slides in Markdown").fill("# Unsaved\n");
    await page.getByRole("navigation", { name: "Editor mode" }).getByRole("link", { name: "Comment" }).click();
    await expect(page.getByRole("heading", { name: "Comments", level: 2 })).toBeVisible();
    await page.getByRole("navigation", { name: "Editor mode" }).getByRole("link", { name: "Edit" }).click();
    await expect(page.getByLabel("Slides in Markdown")).toHaveValue("# Unsaved\n");

    await page.getByRole("link", { name: "View presentation" }).click();
    await expect(page).toHaveURL(/\/p\/[a-z0-9]{12}\/lumenly-board-update-draft\/$/);
    await waitForHydration(page);
    await expect(page.locator("body")).toContainText("Board dinner moved to Thursday");
    await expect(page.locator("body")).toContainText("Questions");
  });

  test("R2.12 #present on the editor's address opens commenting mode for the owner too, without hydration problems", async ({
    page,
  }) => {
    await logIn(page, "ada@podium.test");
    await page.goto(BOARD_UPDATE_LINK);
    await waitForHydration(page);
    const editHref = await page.locator(".private-header").getByRole("link", { name: "Edit" }).getAttribute("href");
    await page.goto(`${editHref}#present`);
    await waitForHydration(page);
    await expect(page.locator("[data-editor-mode]")).toHaveAttribute("data-editor-mode", "commenting");
    await expect(page.getByRole("heading", { name: "Comments", level: 2 })).toBeVisible();
  });

  test("R6.1 a commenter opens #present from the view page, adds a comment and deletes it", async ({ page }) => {
    await logIn(page, "grace@podium.test");
    await page.goto(BOARD_UPDATE_LINK);
    await waitForHydration(page);
    await page.locator(".private-header").getByRole("link", { name: "Comment" }).click();
    await expect(page).toHaveURL(/\/p\/edit\/[a-z0-9]{12}\/#present$/);
    await waitForHydration(page);
    await expect(page.locator("[data-editor-mode]")).toHaveAttribute("data-editor-mode", "commenting");
    await expect(page.getByRole("navigation", { name: "Editor mode" })).toHaveCount(0);
    await expect(page.getByLabel("Slides in Markdown")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Present" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard: type the comment, Tab to Post comment, Enter.
    const comment = "Slide 3: can we show churn by clinic size?";
    await page.getByLabel("Add a comment").fill(comment);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Post comment" })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\?notice=commentAdded#present$/);
    await waitForHydration(page);
    const item = page.locator(".comment").filter({ hasText: comment });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Grace Lindqvist");
    await expect(page.getByText("1 comment", { exact: true })).toBeVisible();
    await page.screenshot({ path: "e2e/screenshots/commenting.png" });
    expect(await axeViolations(page)).toEqual([]);

    // The player plays in commenting mode.
    await page.getByRole("button", { name: "Present" }).click();
    await expect(page.locator(".player")).toHaveAttribute("data-player-state", "playing");

    await item.getByRole("button", { name: "Delete the comment by Grace Lindqvist" }).click();
    await expect(page).toHaveURL(/\?notice=commentDeleted#present$/);
    await waitForHydration(page);
    await expect(page.locator(".comment")).toHaveCount(0);
    await expect(page.getByText("No comments yet. Share what you think of the presentation.")).toBeVisible();
  });
});
