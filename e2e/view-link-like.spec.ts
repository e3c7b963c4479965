import type { Page } from "@playwright/test";
import { axeViolations, expect, logIn, test, waitForHydration } from "./support";

/** A view link of the demo content (server/seed): Lumenly's board update, a private pitch deck. */
const BOARD_UPDATE_LINK = "demo-view-link-lumenly-board-update";

function likeButton(page: Page) {
  return page.getByRole("button", { name: /^Like \d/ });
}

async function likeCount(page: Page): Promise<number> {
  return Number((await page.locator(".like-button__count").first().innerText()).replace(/\D/g, ""));
}

test.describe("R7.2 liking through a view link", () => {
  test("R7.2 the private view page has a like button that likes and unlikes through the view link API", async ({
    page,
  }) => {
    await logIn(page, "tim@podium.test");
    await page.goto(`/view/${BOARD_UPDATE_LINK}/`);
    await waitForHydration(page);
    const button = likeButton(page);
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute("aria-pressed", "false");
    const before = await likeCount(page);

    const put = page.waitForRequest((request) => request.url().includes("/api/v4/presentation/like/"));
    await button.click();
    const request = await put;
    expect(request.method()).toBe("PUT");
    const url = new URL(request.url());
    expect(url.pathname).toBe("/api/v4/presentation/like/");
    expect(url.searchParams.get("auth_key")).toBe(BOARD_UPDATE_LINK);
    expect(url.searchParams.get("key_type")).toBe("view_link");
    expect((await request.response())?.status()).toBeLessThan(300);
    await expect(button).toHaveAttribute("aria-pressed", "true");
    expect(await likeCount(page)).toBe(before + 1);
    await page.screenshot({ path: "e2e/screenshots/view-link-like.png" });
    expect(await axeViolations(page)).toEqual([]);

    // The like is stored: a fresh page shows it, and the button unlikes through the same link.
    await page.reload();
    await waitForHydration(page);
    await expect(likeButton(page)).toHaveAttribute("aria-pressed", "true");
    expect(await likeCount(page)).toBe(before + 1);
    const del = page.waitForRequest((r) => r.url().includes("/api/v4/presentation/like/") && r.method() === "DELETE");
    await likeButton(page).click();
    expect((await (await del).response())?.status()).toBeLessThan(300);
    await expect(likeButton(page)).toHaveAttribute("aria-pressed", "false");
    expect(await likeCount(page)).toBe(before);

    // Keyboard: the button is reachable and works with Enter.
    await likeButton(page).focus();
    const again = page.waitForResponse((r) => r.url().includes("/api/v4/presentation/like/"));
    await page.keyboard.press("Enter");
    expect((await again).status()).toBeLessThan(300);
    await expect(likeButton(page)).toHaveAttribute("aria-pressed", "true");
  });

  test("R7.2 signed out, Like on the private view page sends the visitor to sign up and back", async ({ page }) => {
    await page.goto(`/view/${BOARD_UPDATE_LINK}/`);
    await waitForHydration(page);
    await likeButton(page).click();
    await expect(page).toHaveURL(
      (url) => url.pathname === "/signup/" && url.searchParams.get("next") === `/view/${BOARD_UPDATE_LINK}/`,
    );
  });
});
