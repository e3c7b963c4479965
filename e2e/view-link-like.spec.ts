import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
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

interface Run {
  child: ChildProcess;
  output: () => string;
}

function startServer(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    env: { ...process.env, PODIUM_LOG: "off", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

test.describe("R7.3 pre-production with credentials in the address", () => {
  let server: Run | null = null;
  test.afterEach(async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server?.child.on("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    server = null;
  });

  test("R7.3 Like on http://qa:secret@host/… sends Basic authorization to an address without credentials, and succeeds", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = startServer({
      PORT: String(port),
      PODIUM_ENV: "preproduction",
      PODIUM_DATA_DIR: "memory://",
      PODIUM_PUBLIC_URL: origin,
      PODIUM_RATE_LIMIT: "100000",
      PODIUM_LOGIN_RATE_LIMIT: "1000",
    });
    await expect.poll(server.output, { timeout: 90_000 }).toContain("podium: serving");

    // Sign in on the plain address (cookies belong to the host, whatever the address carries).
    await page.context().clearCookies();
    await page.context().addCookies([{ name: "podium_cookie_consent", value: "necessary", url: origin }]);
    await page.goto(`${origin}/login/`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill("tim@podium.test");
    await page.getByLabel("Password").fill("podium-demo");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/dashboard/);

    const xml = await (await page.request.get(`${origin}/sitemap.xml`)).text();
    const path = new URL(/<loc>([^<]+\/p\/[^<]+)<\/loc>/.exec(xml)?.[1] ?? "").pathname;
    await page.goto(`http://qa:secret@127.0.0.1:${port}${path}`);
    expect(await page.evaluate(() => document.URL)).toContain("qa:secret@");
    await waitForHydration(page);

    const button = likeButton(page);
    const pressed = await button.getAttribute("aria-pressed");
    const before = await likeCount(page);
    const call = page.waitForRequest((request) => /\/api\/v4\/presentation\/[a-z0-9]{12}\/like\/$/.test(request.url()));
    await button.click();
    const request = await call;
    expect(request.method()).toBe(pressed === "true" ? "DELETE" : "PUT");
    expect(request.url()).toBe(`${origin}${request.url().slice(origin.length)}`);
    expect(request.url()).not.toContain("secret");
    expect(await request.headerValue("authorization")).toBe("Basic cWE6c2VjcmV0");
    expect((await request.response())?.status()).toBeLessThan(300);
    await expect(button).toHaveAttribute("aria-pressed", pressed === "true" ? "false" : "true");
    expect(await likeCount(page)).toBe(pressed === "true" ? before - 1 : before + 1);
    await expect(button).toHaveAttribute("data-animation", /liked|default/);
  });
});
