import { describe, expect, it } from "vitest";
import {
  COOKIE_CONSENT_COOKIE,
  type CookieJar,
  cookieDomainForPage,
  createUsageSession,
  encodeUsageSession,
  readUsageSessionId,
  USAGE_SESSION_COOKIE,
  usageCookieDomain,
} from "./usage-session";

/** A cookie jar that behaves like document.cookie: writes set or expire one cookie, reads list them all. */
class FakeJar implements CookieJar {
  readonly store = new Map<string, { value: string; expires: number; attributes: string }>();
  now = Date.UTC(2026, 10, 22, 12, 0, 0);
  get cookie(): string {
    return [...this.store]
      .filter(([, c]) => c.expires > this.now)
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
  }
  set cookie(line: string) {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    const expires = attributes.find((a) => a.toLowerCase().startsWith("expires="));
    this.store.set(pair.slice(0, eq), {
      value: pair.slice(eq + 1),
      expires: expires ? Date.parse(expires.slice(8)) : Number.POSITIVE_INFINITY,
      attributes: attributes.join("; "),
    });
  }
  has(name: string): boolean {
    return this.cookie.split("; ").some((part) => part.startsWith(`${name}=`));
  }
}

const ids = () => {
  let n = 0;
  return () => `random${++n}`;
};

describe("R4.12 R9.12 the usage-session id", () => {
  it("R4.12 without a cookie it is random per page load; with one it comes from the cookie", () => {
    const jar = new FakeJar();
    const random = ids();
    const first = createUsageSession({ mode: "always", jar, randomId: random, secure: false, now: jar.now });
    expect(first.id).toBe("random1");
    // The next page load finds the cookie.
    const second = createUsageSession({ mode: "always", jar, randomId: random, secure: false, now: jar.now });
    expect(second.id).toBe("random1");
    expect(second.cookieId).toBe("random1");
  });

  it("R9.12 the cookie holds encoded JSON with session_id and lasts 30 minutes, renewed by each event", () => {
    const jar = new FakeJar();
    const session = createUsageSession({ mode: "always", jar, randomId: ids(), secure: true, now: jar.now });
    const stored = jar.store.get(USAGE_SESSION_COOKIE);
    expect(stored?.value).toBe(encodeURIComponent(JSON.stringify({ session_id: "random1" })));
    expect(stored?.value).toBe(encodeUsageSession("random1"));
    expect(stored?.expires).toBe(jar.now + 30 * 60 * 1000);
    expect(stored?.attributes).toContain("Secure");
    expect(readUsageSessionId(jar)).toBe("random1");
    jar.now += 20 * 60 * 1000;
    session.touch(jar.now);
    jar.now += 20 * 60 * 1000; // 40 minutes after the start, 20 after the last event
    expect(readUsageSessionId(jar)).toBe("random1");
    jar.now += 11 * 60 * 1000; // 31 minutes after the last event
    expect(jar.has(USAGE_SESSION_COOKIE)).toBe(false);
    expect(createUsageSession({ mode: "always", jar, randomId: () => "fresh", secure: true }).id).toBe("fresh");
  });

  it("R4.12 where consent is needed, no cookie until performance cookies are allowed; removed on refusal", () => {
    const jar = new FakeJar();
    const session = createUsageSession({ mode: "consent", jar, randomId: ids(), secure: false, now: jar.now });
    session.touch(jar.now);
    expect(jar.has(USAGE_SESSION_COOKIE)).toBe(false);
    expect(session.cookieId).toBeNull();
    session.consentChanged(true, jar.now);
    expect(readUsageSessionId(jar)).toBe(session.id);
    expect(session.cookieId).toBe(session.id);
    session.consentChanged(false, jar.now);
    expect(jar.has(USAGE_SESSION_COOKIE)).toBe(false);
    expect(session.cookieId).toBeNull();
    session.touch(jar.now);
    expect(jar.has(USAGE_SESSION_COOKIE)).toBe(false);
    // The id itself lives on for this page load.
    expect(session.id).toBe("random1");
  });

  it("R4.12 a visitor who allowed performance cookies keeps the cookie on later pages; one who refused loses an old one", () => {
    const allowed = new FakeJar();
    allowed.cookie = `${COOKIE_CONSENT_COOKIE}=performance; path=/`;
    expect(createUsageSession({ mode: "consent", jar: allowed, randomId: ids(), secure: false }).cookieId).toBe(
      "random1",
    );
    const refused = new FakeJar();
    refused.cookie = `${COOKIE_CONSENT_COOKIE}=necessary; path=/`;
    refused.cookie = `${USAGE_SESSION_COOKIE}=${encodeUsageSession("old")}; path=/`;
    const session = createUsageSession({ mode: "consent", jar: refused, randomId: ids(), secure: false });
    // Spec: the id comes from the cookie if present; the cookie itself goes.
    expect(session.id).toBe("old");
    expect(session.cookieId).toBeNull();
    expect(refused.has(USAGE_SESSION_COOKIE)).toBe(false);
  });

  it("R4.12 the no-cookie host and embed mode never touch cookies, even when allowed", () => {
    const jar = new FakeJar();
    jar.cookie = `${COOKIE_CONSENT_COOKIE}=performance; path=/`;
    jar.cookie = `${USAGE_SESSION_COOKIE}=${encodeUsageSession("outer")}; path=/`;
    const before = jar.cookie;
    const session = createUsageSession({ mode: "off", jar, randomId: ids(), secure: false });
    session.touch();
    session.consentChanged(true);
    session.consentChanged(false);
    expect(session.id).toBe("random1");
    expect(session.cookieId).toBeNull();
    expect(jar.cookie).toBe(before);
  });

  it("ignores a malformed cookie", () => {
    const jar = new FakeJar();
    jar.cookie = `${USAGE_SESSION_COOKIE}=%7Bnot json; path=/`;
    expect(readUsageSessionId(jar)).toBeNull();
    jar.cookie = `${USAGE_SESSION_COOKIE}=${encodeURIComponent(JSON.stringify({ session_id: "<script>" }))}; path=/`;
    expect(readUsageSessionId(jar)).toBeNull();
  });
});

describe("R9.12 the usage cookie's domain by environment", () => {
  it("R9.12 local, localhost and addresses keep a host-only cookie; dev, pre-production and production use their domain", () => {
    expect(usageCookieDomain("local", "localhost")).toBeNull();
    expect(usageCookieDomain("local", "podium.local.example")).toBeNull();
    expect(usageCookieDomain("production", "localhost")).toBeNull();
    expect(usageCookieDomain("production", "127.0.0.1")).toBeNull();
    expect(usageCookieDomain("production", "[::1]")).toBeNull();
    expect(usageCookieDomain("dev", "podium.dev.example")).toBe("podium.dev.example");
    expect(usageCookieDomain("preproduction", "qa.podium.example")).toBe("qa.podium.example");
    expect(usageCookieDomain("production", "www.podium.example")).toBe("podium.example");
    expect(usageCookieDomain("production", "Podium.Example")).toBe("podium.example");
    expect(usageCookieDomain("nocookie", "podium.example")).toBeNull();
  });

  it("R9.12 a page uses the domain only on a host of that domain", () => {
    expect(cookieDomainForPage("podium.example", "podium.example")).toBe("podium.example");
    expect(cookieDomainForPage("www.podium.example", "podium.example")).toBe("podium.example");
    expect(cookieDomainForPage("evilpodium.example", "podium.example")).toBeNull();
    expect(cookieDomainForPage("127.0.0.1", "podium.example")).toBeNull();
    expect(cookieDomainForPage("podium.example", null)).toBeNull();
  });

  it("R9.12 the session writes and removes its cookie with the domain", () => {
    const jar = new FakeJar();
    const lines: string[] = [];
    const recording: CookieJar = {
      get cookie() {
        return jar.cookie;
      },
      set cookie(line: string) {
        lines.push(line);
        jar.cookie = line;
      },
    };
    const session = createUsageSession({
      mode: "consent",
      jar: recording,
      randomId: ids(),
      secure: true,
      domain: "podium.example",
      now: jar.now,
    });
    session.consentChanged(true, jar.now);
    session.consentChanged(false, jar.now);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain("; domain=podium.example;");
    expect(jar.has(USAGE_SESSION_COOKIE)).toBe(false);
    // Without a domain the cookie is host-only, as before.
    const hostOnly: string[] = [];
    createUsageSession({
      mode: "always",
      jar: {
        get cookie() {
          return "";
        },
        set cookie(line: string) {
          hostOnly.push(line);
        },
      },
      randomId: ids(),
      secure: false,
    });
    expect(hostOnly[0]).not.toContain("domain=");
  });
});
