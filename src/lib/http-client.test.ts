import { describe, expect, it, vi } from "vitest";
import { basicAuthorizationFrom, isSuccessStatus, MISSING_CSRF_MESSAGE, readCookie, sendWithCsrf } from "./http-client";

describe("HTTP client", () => {
  it("R7.12 R5.2 R8.1 refuses to call without the XSRF-TOKEN cookie, before any request", async () => {
    const fetchImpl = vi.fn();
    await expect(sendWithCsrf("PUT", "/api/x", { cookies: "other=1", fetchImpl })).rejects.toThrow(
      new Error("Cannot make request without CSRF token."),
    );
    expect(MISSING_CSRF_MESSAGE).toBe("Cannot make request without CSRF token.");
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("R7.1 R7.12 sends the token in X-XSRF-TOKEN with a JSON content type and no body", async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 204 }));
    await sendWithCsrf("DELETE", "/api/x", { cookies: "a=b; XSRF-TOKEN=tok%2Den; c=d", fetchImpl });
    expect(fetchImpl).toHaveBeenCalledWith("/api/x", {
      method: "DELETE",
      headers: { "Content-Type": "application/json", "X-XSRF-TOKEN": "tok-en" },
      credentials: "same-origin",
      // Sent even if the page is left at once (a like, then a reload).
      keepalive: true,
    });
  });

  it("R7.12 R8.2 treats 200–299 as success; a failure rejects with the status text, body unread", async () => {
    expect([199, 200, 250, 299, 300, 404].map(isSuccessStatus)).toEqual([false, true, true, true, false, false]);
    const body = { read: false };
    const failing = vi.fn(async () => {
      const response = new Response("secret details", { status: 403, statusText: "Forbidden" });
      const original = response.text.bind(response);
      response.text = async () => {
        body.read = true;
        return original();
      };
      return response;
    });
    await expect(sendWithCsrf("PUT", "/x", { cookies: "XSRF-TOKEN=t", fetchImpl: failing })).rejects.toThrow(
      "Forbidden",
    );
    expect(body.read).toBe(false);
  });

  it("R7.3 builds a Basic authorization header from credentials in the address", () => {
    expect(basicAuthorizationFrom("https://ann:s%40cret@pre.podium.test/p/x/")).toBe(`Basic ${btoa("ann:s@cret")}`);
    expect(basicAuthorizationFrom("https://pre.podium.test/p/x/")).toBeNull();
  });

  it("reads cookies by exact name", () => {
    expect(readCookie("XSRF-TOKEN-OLD=1; XSRF-TOKEN=2", "XSRF-TOKEN")).toBe("2");
    expect(readCookie("", "XSRF-TOKEN")).toBeNull();
  });
});
