import { type Cookie, expect, type Page } from "@playwright/test";

/**
 * Posts the login form as the browser does (the CSRF token from the login page's cookie as the
 * `_csrf` field) through the page's own request context, and returns the session's cookies. The
 * page's context is signed in after (for a `beforeAll`, which has no test's page, too). `origin`:
 * a server other than the context's `baseURL`.
 */
export async function signInCookies(page: Page, email: string, origin = ""): Promise<Cookie[]> {
  const context = page.context();
  const form = await page.request.get(`${origin}/login/`);
  expect(form.status()).toBe(200);
  const token = (await context.cookies()).find((cookie) => cookie.name === "XSRF-TOKEN")?.value ?? "";
  const response = await page.request.post(`${origin}/login/`, {
    form: { email, password: "podium-demo", next: "/dashboard/next/", _csrf: token },
    maxRedirects: 0,
  });
  expect(response.status(), `signing ${email} in`).toBe(303);
  const cookies = (await context.cookies()).filter((cookie) => cookie.name !== "podium_cookie_consent");
  expect(cookies.map((cookie) => cookie.name)).toContain("podium_session");
  return cookies;
}
