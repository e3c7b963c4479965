import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestUser, TestAgent, useTestApp } from "../../server/testing";
import { passwordHashLog2N } from "./password";
import { createSessionResolver, endSession, startSession } from "./service";

/** Two addresses for the login tests: a guesser's and the owner's. */
const ATTACKER = "203.0.113.66";
const OWNER = "198.51.100.20";

/** Logs in through the form from an address (a fresh agent fetches the form first, for its CSRF token). */
async function logInFrom(agent: TestAgent, address: string, email: string, password: string) {
  if (!agent.cookies.get("XSRF-TOKEN")) await agent.get("/login/");
  const token = agent.cookies.get("XSRF-TOKEN") ?? "";
  return agent.request({
    method: "POST",
    url: "/login/",
    remoteAddress: address,
    payload: new URLSearchParams({ email, password, _csrf: token }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

describe.each(testDatabaseTargets())("accounts on $name", (target) => {
  const t = useTestApp(target);

  it("signs up with a hashed password, an HttpOnly SameSite=Lax session and a readable XSRF-TOKEN", async () => {
    const agent = new TestAgent(t.app);
    const page = await agent.get("/signup/?next=%2Fp%2Fabcdefghijkl%2F");
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    const response = await agent.signUp("new.person@podium.test");
    const session = response.cookies.find((c) => c.name === "podium_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    const xsrf = response.cookies.find((c) => c.name === "XSRF-TOKEN");
    expect(xsrf?.httpOnly).toBeFalsy();
    const [row] = await t.db.query<{ password_hash: string }>("select password_hash from users where email = $1", [
      "new.person@podium.test",
    ]);
    // The cost this run hashes with (the default, 2^17, is password.test.ts's).
    expect(row?.password_hash).toMatch(new RegExp(`^scrypt\\$${2 ** passwordHashLog2N()}\\$8\\$1\\$`));
    expect(row?.password_hash).not.toContain("correct horse battery");
    const settings = await agent.get("/settings/");
    expect(settings.statusCode).toBe(200);
    expect(settings.body).toContain("new.person@podium.test");
  });

  it("R2.7 returns to the same-origin next path after signing up", async () => {
    const agent = new TestAgent(t.app);
    await agent.get("/signup/");
    const response = await agent.postSignUp({
      email: "nia@podium.test",
      password: "a long enough password",
      next: "/p/abcdefghijkl/some-deck/",
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/p/abcdefghijkl/some-deck/");
  });

  it("refuses bad signups with the field and a clear message; a taken email is 409", async () => {
    const agent = new TestAgent(t.app);
    await agent.get("/signup/");
    const short = await agent.postSignUp({ email: "a@podium.test", password: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain("Use a password of 10 to 200 characters.");
    const email = await agent.postSignUp({ email: "not-an-email", password: "long enough password" });
    expect(email.statusCode).toBe(400);
    expect(email.body).toContain("Enter a valid email address.");
    await new TestAgent(t.app).signUp("taken@podium.test");
    const taken = await agent.postSignUp({ email: "TAKEN@podium.test", password: "long enough password" });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain("An account with this email already exists.");
  });

  it("logs in with a new session id each time; wrong credentials get one generic message", async () => {
    await new TestAgent(t.app).signUp("login.me@podium.test", "the right password");
    const agent = new TestAgent(t.app);
    await agent.get("/login/");
    const wrongPassword = await agent.postForm("/login/", {
      email: "login.me@podium.test",
      password: "the wrong password",
    });
    const wrongEmail = await agent.postForm("/login/", { email: "nobody@podium.test", password: "the right password" });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongEmail.statusCode).toBe(401);
    const message = "That email and password don&#x27;t match an account.";
    expect(wrongPassword.body).toContain(message);
    expect(wrongEmail.body).toContain(message);
    const first = await agent.postForm("/login/", { email: "login.me@podium.test", password: "the right password" });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe("/dashboard/next/");
    const firstSession = agent.cookies.get("podium_session");
    await agent.get("/login/");
    const again = new TestAgent(t.app);
    await again.get("/login/");
    await again.postForm("/login/", { email: "login.me@podium.test", password: "the right password" });
    expect(again.cookies.get("podium_session")).not.toBe(firstSession);
  });

  it("logout ends the session on the server: the old cookie no longer works", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("leaving@podium.test");
    const stolen = agent.cookies.get("podium_session");
    const confirm = await agent.get("/logout");
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain("Log out of Podium?");
    const out = await agent.postForm("/logout", {});
    expect(out.statusCode).toBe(303);
    expect(agent.cookies.has("podium_session")).toBe(false);
    const replay = await t.app.inject({
      method: "GET",
      url: "/settings/",
      headers: { cookie: `podium_session=${stolen}` },
    });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe("/login/?next=%2Fsettings%2F");
  });

  it("session lookups that arrive together take one query, and an ended session is never live", async () => {
    const users = await Promise.all(
      ["ida", "joe"].map((key) =>
        insertTestUser(t.db, {
          oid: stableOid(`accounts:batch:${key}`),
          email: `${key}@batch.podium.test`,
          username: `batch-${key}`,
          firstName: key,
          lastName: "Batch",
        }),
      ),
    );
    const [ida, joe] = users;
    if (!ida || !joe) throw new Error("no users");
    const idaToken = await startSession(t.db, ida.id);
    const joeToken = await startSession(t.db, joe.id);
    const endedToken = await startSession(t.db, joe.id);
    await endSession(t.db, endedToken);
    let queries = 0;
    const counted: Queryable = {
      query: (sql, params) => {
        queries += 1;
        return t.db.query(sql, params);
      },
    };
    const resolve = createSessionResolver(counted);
    const viewers = await Promise.all(
      [idaToken, endedToken, joeToken, idaToken, "not-a-token", undefined].map((token) => resolve(token)),
    );
    expect(viewers.map((viewer) => viewer?.email ?? null)).toEqual([
      "ida@batch.podium.test",
      null,
      "joe@batch.podium.test",
      "ida@batch.podium.test",
      null,
      null,
    ]);
    expect(queries).toBe(1);
    // Always fresh: once ended, the very next lookup says so.
    await endSession(t.db, joeToken);
    expect(await resolve(joeToken)).toBeNull();
    expect((await resolve(idaToken))?.userId).toBe(ida.id);
  });

  it("a GET never changes state: GET /logout keeps the session", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("still.here@podium.test");
    await agent.get("/logout");
    expect((await agent.get("/settings/")).statusCode).toBe(200);
  });

  it("settings: names, display name and language are saved; the password change needs the current one", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("settle@podium.test", "first password here");
    await agent.get("/settings/");
    const saved = await agent.postForm("/settings/", {
      firstName: "Sett",
      lastName: "Le",
      publicDisplayName: "S. Le",
      language: "de",
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe("/settings/?saved=profile");
    expect(agent.cookies.get("language")).toBe("de");
    const page = await agent.get("/settings/?saved=profile");
    expect(page.body).toContain('value="S. Le"');
    const wrong = await agent.postForm("/settings/password", {
      currentPassword: "not it at all",
      newPassword: "second password here",
    });
    expect(wrong.statusCode).toBe(400);
    // The chosen language is used at once: the message is German.
    expect(wrong.body).toContain('<html lang="de"');
    expect(wrong.body).toContain("Ihr aktuelles Passwort ist nicht korrekt.");
    const other = new TestAgent(t.app);
    await other.get("/login/");
    await other.postForm("/login/", { email: "settle@podium.test", password: "first password here" });
    const changed = await agent.postForm("/settings/password", {
      currentPassword: "first password here",
      newPassword: "second password here",
    });
    expect(changed.headers.location).toBe("/settings/?saved=password");
    // Other sessions end with a password change; this one stays.
    expect((await other.get("/settings/")).statusCode).toBe(303);
    expect((await agent.get("/settings/")).statusCode).toBe(200);
    const login = new TestAgent(t.app);
    await login.get("/login/");
    expect(
      (await login.postForm("/login/", { email: "settle@podium.test", password: "second password here" })).statusCode,
    ).toBe(303);
  });

  it("sends open redirects home: next must be a same-origin path", async () => {
    for (const next of ["//evil.com", "/\\evil.com", "https://evil.com", "javascript:alert(1)", "/%09/evil.com"]) {
      const agent = new TestAgent(t.app);
      await agent.get("/signup/");
      const email = `redirect.${Math.random().toString(36).slice(2)}@podium.test`;
      const response = await agent.postSignUp({ email, password: "long enough password", next });
      expect(response.statusCode, next).toBe(303);
      expect(response.headers.location, next).toBe("/dashboard/next/");
      const login = new TestAgent(t.app);
      const page = await login.get(`/login/?next=${encodeURIComponent(next)}`);
      expect(page.body, next).toContain('name="next" value="/"');
    }
  });

  it("shows an owner's profile with their listed presentations; unknown people are 404", async () => {
    const agent = new TestAgent(t.app);
    await agent.signUp("profiled@podium.test", "long enough password", { firstName: "Pro", lastName: "Filed" });
    const [user] = await t.db.query<{ oid: string }>("select oid from users where email = 'profiled@podium.test'");
    const page = await agent.get(`/user/${user?.oid}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Pro Filed");
    expect((await agent.get("/user/zzzzzzzzzzzz/")).statusCode).toBe(404);
    expect((await agent.get("/user/<script>/")).statusCode).toBe(404);
  });

  it("issue 31: search engines may list an owner's profile, not the form pages (login, signup, settings, dashboard)", async () => {
    const noindex = '<meta name="robots" content="noindex">';
    const visitor = new TestAgent(t.app);
    for (const path of ["/login/", "/signup/", "/signup/?next=%2F"]) {
      expect((await visitor.get(path)).body, path).toContain(noindex);
    }
    const agent = new TestAgent(t.app);
    await agent.signUp("listed@podium.test");
    const [user] = await t.db.query<{ oid: string }>("select oid from users where email = 'listed@podium.test'");
    for (const path of ["/settings/", "/dashboard/next/"]) {
      expect((await agent.get(path)).body, path).toContain(noindex);
    }
    const profile = await agent.get(`/user/${user?.oid}/`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain(noindex);
  });
});

describe.each(testDatabaseTargets().slice(0, 1))("login and signup throttling on $name", (target) => {
  /**
   * The throttles' clock stands still unless a test moves it: a login takes a scrypt (half a
   * second, seconds on a busy machine), and on a real clock the 1 s delays would pass between two
   * attempts and the counts would depend on the machine's speed (issue 29 item 5).
   */
  let offset = 0;
  let clock: { mockRestore(): void } | undefined;
  beforeEach(() => {
    const start = Date.now();
    offset = 0;
    clock = vi.spyOn(Date, "now").mockImplementation(() => start + offset);
  });
  afterEach(() => {
    clock?.mockRestore();
  });

  it("answers 429 with Retry-After beyond the signups allowed per address", async () => {
    const { app, close } = await createTestApp(target, {
      accountLimits: { loginPerAddress: 100, loginFailuresPerAccount: 8, signupsPerAddress: 2 },
    });
    try {
      const statuses: number[] = [];
      let retryAfter: unknown;
      for (let i = 0; i < 3; i += 1) {
        const agent = new TestAgent(app);
        await agent.get("/signup/");
        const response = await agent.postSignUp({ email: `s${i}@throttle.test`, password: "long enough password" });
        statuses.push(response.statusCode);
        retryAfter = response.headers["retry-after"];
      }
      expect(statuses).toEqual([303, 303, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it("hardening 8: (a) 20 wrong passwords from one address don't keep the owner out from another", async () => {
    // A ceiling of 8 failures per account: the 20 tries count only as the 5 that were judged.
    const { app, close } = await createTestApp(target, {
      accountLimits: { loginPerAddress: 100_000, loginFailuresPerAccount: 8, signupsPerAddress: 100_000 },
    });
    try {
      await new TestAgent(app).signUp("ada@podium.test", "ada's real password");
      const statuses: number[] = [];
      const attacker = new TestAgent(app);
      for (let attempt = 0; attempt < 20; attempt += 1) {
        statuses.push((await logInFrom(attacker, ATTACKER, "ada@podium.test", `guess ${attempt}`)).statusCode);
      }
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
      const owner = await logInFrom(new TestAgent(app), OWNER, "ada@podium.test", "ada's real password");
      expect(owner.statusCode).toBe(303);
    } finally {
      await close();
    }
  });

  it("hardening 8: (b) failures of one account from one address wait 1 s, then 2 s, then 4 s", async () => {
    const { app, close } = await createTestApp(target, {
      accountLimits: { loginPerAddress: 100_000, loginFailuresPerAccount: 100, signupsPerAddress: 100_000 },
    });
    try {
      await new TestAgent(app).signUp("bea@podium.test", "bea's real password");
      const agent = new TestAgent(app);
      const wrong = () => logInFrom(agent, ATTACKER, "bea@podium.test", "a wrong password");
      for (let attempt = 0; attempt < 5; attempt += 1) expect((await wrong()).statusCode).toBe(401);
      const waits: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        const refused = await wrong();
        expect(refused.statusCode).toBe(429);
        expect(refused.body).toContain("Too many attempts");
        waits.push(String(refused.headers["retry-after"]));
        // The right password waits too (the delay doesn't look at what was typed) ...
        expect((await logInFrom(agent, ATTACKER, "bea@podium.test", "bea's real password")).statusCode).toBe(429);
        offset += Number(refused.headers["retry-after"]) * 1000 + 100;
        // ... and once it has passed, one more try is judged.
        expect((await wrong()).statusCode).toBe(401);
      }
      expect(waits).toEqual(["1", "2", "4"]);
      expect((await wrong()).headers["retry-after"]).toBe("8");
      // Nobody else waits: the owner signs in from elsewhere meanwhile.
      expect((await logInFrom(new TestAgent(app), OWNER, "bea@podium.test", "bea's real password")).statusCode).toBe(
        303,
      );
      // After the wait, the right password from that address signs in and clears its count.
      offset += 8_100;
      expect((await logInFrom(agent, ATTACKER, "bea@podium.test", "bea's real password")).statusCode).toBe(303);
    } finally {
      await close();
    }
  });

  it("hardening 8: (c) the owner's browser signs in while others have reached the account's ceiling", async () => {
    const { app, close } = await createTestApp(target, {
      accountLimits: { loginPerAddress: 100_000, loginFailuresPerAccount: 3, signupsPerAddress: 100_000 },
    });
    try {
      const owner = new TestAgent(app);
      await owner.signUp("cyd@podium.test", "cyd's real password");
      const logOut = async () => {
        await owner.get("/logout");
        expect((await owner.postForm("/logout", {})).statusCode).toBe(303);
      };
      await logOut();
      expect((await logInFrom(owner, OWNER, "cyd@podium.test", "cyd's real password")).statusCode).toBe(303);
      expect(owner.cookies.get("podium_device")).toMatch(/^[\w-]{24}\.[\w-]{43}$/);
      await logOut();
      // Three guessers on three addresses reach the account-wide ceiling ...
      for (let i = 1; i <= 3; i += 1) {
        const response = await logInFrom(new TestAgent(app), `203.0.113.${i}`, "cyd@podium.test", "a guess");
        expect(response.statusCode).toBe(401);
      }
      // ... so a browser that never signed in to the account waits, even with the right password,
      const stranger = await logInFrom(new TestAgent(app), "198.51.100.9", "cyd@podium.test", "cyd's real password");
      expect(stranger.statusCode).toBe(429);
      expect(Number(stranger.headers["retry-after"])).toBeGreaterThan(0);
      // ... but the owner's browser doesn't, from its usual address or from a new one.
      expect((await logInFrom(owner, OWNER, "cyd@podium.test", "cyd's real password")).statusCode).toBe(303);
      await logOut();
      expect((await logInFrom(owner, "192.0.2.77", "cyd@podium.test", "cyd's real password")).statusCode).toBe(303);
      // A forged device cookie counts for nothing.
      const forged = new TestAgent(app);
      forged.cookies.set("podium_device", `${"a".repeat(24)}.${"b".repeat(43)}`);
      expect((await logInFrom(forged, OWNER, "cyd@podium.test", "cyd's real password")).statusCode).toBe(429);
    } finally {
      await close();
    }
  });

  it("hardening 8: (d) successful logins don't count against the per-address limit; failures do", async () => {
    const { app, close } = await createTestApp(target, {
      accountLimits: { loginPerAddress: 3, loginFailuresPerAccount: 100, signupsPerAddress: 100_000 },
    });
    try {
      await new TestAgent(app).signUp("dee@podium.test", "dee's real password");
      const statuses: number[] = [];
      for (let i = 0; i < 9; i += 1) {
        statuses.push(
          (await logInFrom(new TestAgent(app), OWNER, "dee@podium.test", "dee's real password")).statusCode,
        );
      }
      expect(statuses).toEqual(Array(9).fill(303));
      // Failures (here for accounts that don't exist, one message for all) do count.
      for (let i = 0; i < 3; i += 1) {
        expect((await logInFrom(new TestAgent(app), OWNER, `nobody${i}@podium.test`, "whatever")).statusCode).toBe(401);
      }
      const refused = await logInFrom(new TestAgent(app), OWNER, "dee@podium.test", "dee's real password");
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
