import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { connect as netConnect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestDeck, signUpRoles, TestAgent, userIdOf } from "../../server/testing";
import type { PresenterPageData } from "../presentation/presenter/page-data";
import { type Privacy, upsertCollaborator } from "../presentation/repository";
import type { LivePresenterPageData } from "./components/LivePresenterPage";
import type { PresenterLiveData } from "./page-data";
import { LIVE_CODE_ALPHABET, LIVE_CODE_LENGTH, type LiveEvent, normaliseLiveCode } from "./rules";
import { FOLLOWER_COOKIE, newLiveCode } from "./service";

/** Issue 35: live sessions (codes, grants, ending, limits, CSRF, resuming streams, slow followers). */

const oids = {
  public: stableOid("live:public"),
  private: stableOid("live:private"),
  unlisted: stableOid("live:unlisted"),
};

/** Small limits so the tests reach them (production's are LIVE_LIMITS). */
const LIMITS = {
  joinFailuresPerAddress: 3,
  reactionsPerFollower: 3,
  questionsPerFollower: 3,
};
/** A follower whose unsent bytes pass this is dropped (production: 16 KiB). */
const MAX_BUFFERED = 64 * 1024;

interface SseEvent {
  id: string | null;
  event: string;
  data: LiveEvent;
}

/** A raw reader of a server-sent event stream, as bench/live.mjs reads one. */
function openStream(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; events: SseEvent[]; next(): Promise<SseEvent>; close(): void; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { headers: { accept: "text/event-stream", ...headers } });
    request.on("error", reject);
    request.on("response", (response: IncomingMessage) => {
      const events: SseEvent[] = [];
      const waiting: ((event: SseEvent) => void)[] = [];
      let taken = 0;
      let buffer = "";
      let resolveEnded: () => void = () => {};
      const ended = new Promise<void>((done) => {
        resolveEnded = done;
      });
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          if (frame.startsWith(":")) continue;
          const fields = new Map(
            frame.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
          );
          const event = {
            id: fields.get("id") ?? null,
            event: fields.get("event") ?? "",
            data: JSON.parse(fields.get("data") ?? "null") as LiveEvent,
          };
          events.push(event);
          const waiter = waiting.shift();
          if (waiter) {
            taken++;
            waiter(event);
          }
        }
      });
      response.on("end", resolveEnded);
      response.on("close", resolveEnded);
      resolve({
        status: response.statusCode ?? 0,
        events,
        next: () =>
          new Promise((done) => {
            const ready = events[taken];
            if (ready) {
              taken++;
              done(ready);
            } else waiting.push(done);
          }),
        close: () => request.destroy(),
        ended,
      });
    });
    request.end();
  });
}

describe("issue 35: live codes", () => {
  it("issue 35: a code is 8 characters of a 31-character alphabet without look-alikes (31^8 ≈ 8.5e11)", () => {
    expect(LIVE_CODE_ALPHABET).toHaveLength(31);
    expect(new Set(LIVE_CODE_ALPHABET).size).toBe(31);
    for (const lookAlike of "01OIL") expect(LIVE_CODE_ALPHABET).not.toContain(lookAlike);
    expect(31 ** LIVE_CODE_LENGTH).toBeGreaterThan(8.5e11);
    const codes = new Set(Array.from({ length: 2000 }, () => newLiveCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
  });

  it("issue 35: a typed code may be lower case, spaced or dashed; anything else is no code", () => {
    expect(normaliseLiveCode("abcd efgh")).toBe("ABCDEFGH");
    expect(normaliseLiveCode("ABCD-EFGH")).toBe("ABCDEFGH");
    expect(normaliseLiveCode("ABCDEFG0")).toBeNull();
    expect(normaliseLiveCode("ABCDEFG")).toBeNull();
    expect(normaliseLiveCode("../../etc")).toBeNull();
  });
});

describe.each(testDatabaseTargets())("issue 35: live sessions on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let base: string;
  const agents = {} as Record<"owner" | "commenter" | "stranger", TestAgent>;

  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target, {
      live: { limits: LIMITS, maxBufferedBytes: MAX_BUFFERED, reactionFlushMs: 20 },
    }));
    const { agents: signedUp, ids } = await signUpRoles(app, db, ["owner", "commenter", "stranger"], "live.test");
    Object.assign(agents, signedUp);
    const document = importMarkdown("# One\n---\n# Two\n---\n# Three\n---\n# Four", "2");
    for (const [key, oid] of Object.entries(oids)) {
      await insertTestDeck(db, {
        oid,
        ownerId: ids.owner ?? "",
        title: `Live ${key} deck`,
        privacy: key as Privacy,
        document,
      });
    }
    const [privateRow] = await db.query<{ id: string }>("select id::text as id from presentations where oid = $1", [
      oids.private,
    ]);
    await upsertCollaborator(db, privateRow?.id ?? "", ids.commenter ?? "", "comment");
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => close());

  const postJson = (agent: TestAgent, url: string, body: unknown, options: { csrf?: boolean } = {}) => {
    const token = agent.cookies.get("XSRF-TOKEN");
    return agent.request({
      method: "POST",
      url,
      payload: JSON.stringify(body),
      headers: {
        "content-type": "application/json",
        ...(options.csrf !== false && token ? { "x-xsrf-token": token } : {}),
      },
    });
  };
  const goLive = async (oid: string, step = 0): Promise<PresenterLiveData> => {
    const response = await postJson(agents.owner, `/p/presenter/${oid}/live`, { step });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as PresenterLiveData;
  };
  /** A follower: opens the follow page (follower cookie, CSRF token). */
  const join = async (code: string) => {
    const follower = new TestAgent(app);
    const page = await follower.get(`/live/${code}`);
    expect(page.statusCode).toBe(200);
    return follower;
  };
  const end = async (code: string) => {
    expect((await postJson(agents.owner, `/live/${code}/end`, {})).statusCode).toBe(200);
  };

  it("issue 35 item 1: Go live is the owner's or an editor's, with CSRF; the code, join address and QR code come back; again, the same session", async () => {
    const live = await goLive(oids.public, 1);
    expect(live.code).toMatch(/^[23456789A-HJKMNP-Z]{8}$/);
    expect(live.joinUrl).toBe(`https://podium.example/live/${live.code}`);
    expect(live.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(live.state).toMatchObject({ step: 1, ended: false, questionsEnabled: true, questions: [] });
    expect((await goLive(oids.public)).code).toBe(live.code);
    expect((await postJson(agents.owner, `/p/presenter/${oids.public}/live`, {}, { csrf: false })).statusCode).toBe(
      403,
    );
    expect((await postJson(agents.stranger, `/p/presenter/${oids.public}/live`, {})).statusCode).toBe(403);
    expect((await postJson(agents.commenter, `/p/presenter/${oids.private}/live`, {})).statusCode).toBe(403);
    expect((await postJson(agents.stranger, `/p/presenter/${oids.private}/live`, {})).statusCode).toBe(404);
    // The presenter view shows the running session after a reload.
    const page = await agents.owner.get(`/p/presenter/${oids.public}/`);
    const boot = JSON.parse(/id="podium-boot">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? "{}") as {
      data: LivePresenterPageData & { presenter: PresenterPageData };
    };
    expect(boot.data.canGoLive).toBe(true);
    expect(boot.data.live?.code).toBe(live.code);
    // Only the presenter moves the session.
    expect((await postJson(agents.stranger, `/live/${live.code}/step`, { step: 2 })).statusCode).toBe(403);
    expect((await postJson(agents.owner, `/live/${live.code}/step`, { step: 9 })).statusCode).toBe(400);
    await end(live.code);
  });

  it("issue 35 item 2: the code grants a private deck for the session's length only, then is a 404 that names nothing", async () => {
    const live = await goLive(oids.private);
    const follower = new TestAgent(app);
    const page = await follower.get(`/live/${live.code}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Live private deck");
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    const cookie = page.cookies.find((set) => set.name === FOLLOWER_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, path: `/live/${live.code}`, sameSite: "Lax" });
    expect((await follower.get(`/live/${live.code}/document.json`)).json().path).toHaveLength(4);
    expect((await follower.get(`/live/${live.code}/thumbnail.svg`)).statusCode).toBe(200);
    // The deck itself stays private.
    expect((await follower.get(`/p/${oids.private}/document.json`)).statusCode).toBe(404);
    // A lower-case or spaced code finds the session's address.
    const typed = await follower.get(`/live/${live.code.toLowerCase()}`);
    expect(typed.statusCode).toBe(303);
    expect(typed.headers.location).toBe(`/live/${live.code}`);

    await end(live.code);
    const after = await follower.get(`/live/${live.code}`);
    expect(after.statusCode).toBe(404);
    expect(after.body).not.toContain("Live private deck");
    expect(after.body).not.toContain(oids.private);
    expect((await follower.get(`/live/${live.code}/document.json`)).statusCode).toBe(404);
    expect((await follower.get(`/live/${live.code}/thumbnail.svg`)).statusCode).toBe(404);
    const stream = await openStream(base, `/live/${live.code}/events`);
    expect(stream.status).toBe(404);
    stream.close();
  });

  it("issue 35 item 2: an ended public deck's code says so and links the deck", async () => {
    const live = await goLive(oids.public);
    await end(live.code);
    const after = await new TestAgent(app).get(`/live/${live.code}`);
    expect(after.statusCode).toBe(404);
    expect(after.body).toContain(`href="/p/${oids.public}/`);
  });

  it("issue 35 item 2: /live/ takes a typed code (small letters, spaces, dashes) to its follow page, and says what a code looks like", async () => {
    const live = await goLive(oids.unlisted);
    const visitor = new TestAgent(app);
    const form = await visitor.get("/live/");
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<form class="live-join__form" action="/live/" method="get">');
    expect(form.body).toContain('name="code"');
    expect(form.body).toContain("Join a live presentation");
    // The room reads "K85J FWJQ" off the screen; typed in any way, it leads to the follow page.
    const typed = `${live.code.slice(0, 4).toLowerCase()} - ${live.code.slice(4)}`;
    const going = await visitor.get(`/live/?code=${encodeURIComponent(typed)}`);
    expect(going.statusCode).toBe(303);
    expect(going.headers.location).toBe(`/live/${live.code}`);
    expect((await visitor.get(`/live/${live.code}`)).statusCode).toBe(200);
    // Not a code's shape: said on the form, with what was typed, and nothing counted as a guess.
    const wrong = await visitor.get("/live/?code=HELLO%3Cb%3E");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain("That isn&#x27;t a live code: a code is 8 letters and digits");
    expect(wrong.body).toContain('value="HELLO&lt;b&gt;"');
    expect(wrong.body).toContain('aria-invalid="true"');
    // An ended code's page offers the form again.
    await end(live.code);
    const ended = await visitor.get(`/live/${live.code}`);
    expect(ended.statusCode).toBe(404);
    expect(ended.body).toContain('action="/live/"');
  });

  it("issue 35 done-when: guessing codes is limited per address; past the limit even a right code is refused", async () => {
    const live = await goLive(oids.unlisted);
    const guesser = new TestAgent(app);
    const guess = (code: string) =>
      guesser.request({ method: "GET", url: `/live/${code}`, remoteAddress: "203.0.113.9" });
    for (let i = 0; i < LIMITS.joinFailuresPerAddress; i++) expect((await guess(newLiveCode())).statusCode).toBe(404);
    const limited = await guess(newLiveCode());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await guess(live.code)).statusCode).toBe(429);
    // Another address is not held back, and a right code never counts as a failure.
    const other = (code: string) =>
      guesser.request({ method: "GET", url: `/live/${code}`, remoteAddress: "203.0.113.10" });
    for (let i = 0; i < LIMITS.joinFailuresPerAddress + 2; i++) expect((await other(live.code)).statusCode).toBe(200);
    await end(live.code);
  });

  it("issue 35 item 3: followers' calls need the follower cookie and the CSRF token; reactions and questions are limited per follower", async () => {
    const live = await goLive(oids.public);
    const follower = await join(live.code);
    // No CSRF token: refused by the app's CSRF check.
    expect(
      (await postJson(follower, `/live/${live.code}/reactions`, { reaction: "applause" }, { csrf: false })).statusCode,
    ).toBe(403);
    // No follower cookie (the page was never opened): refused.
    const outsider = await join(live.code);
    outsider.cookies.delete(FOLLOWER_COOKIE);
    expect((await postJson(outsider, `/live/${live.code}/reactions`, { reaction: "applause" })).statusCode).toBe(403);
    // Another session's cookie proves nothing here.
    const otherLive = await goLive(oids.unlisted);
    const otherFollower = await join(otherLive.code);
    const forged = await join(live.code);
    forged.cookies.set(FOLLOWER_COOKIE, otherFollower.cookies.get(FOLLOWER_COOKIE) ?? "");
    expect((await postJson(forged, `/live/${live.code}/questions`, { text: "Forged?" })).statusCode).toBe(403);

    expect((await postJson(follower, `/live/${live.code}/reactions`, { reaction: "confetti" })).statusCode).toBe(400);
    for (let i = 0; i < LIMITS.reactionsPerFollower; i++) {
      expect((await postJson(follower, `/live/${live.code}/reactions`, { reaction: "heart" })).statusCode).toBe(200);
    }
    expect((await postJson(follower, `/live/${live.code}/reactions`, { reaction: "heart" })).statusCode).toBe(429);

    // Questions: the comments' rules (1–2000 characters after trimming), then the per-follower limit.
    expect((await postJson(follower, `/live/${live.code}/questions`, { text: "   " })).statusCode).toBe(400);
    const tooLong = await postJson(follower, `/live/${live.code}/questions`, { text: "x".repeat(2001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe("A question can be at most 2000 characters long.");
    expect((await postJson(follower, `/live/${live.code}/questions`, { text: "x".repeat(2000) })).statusCode).toBe(200);
    expect((await postJson(follower, `/live/${live.code}/questions`, { text: "Why\r\nthe tide?" })).statusCode).toBe(
      200,
    );
    expect((await postJson(follower, `/live/${live.code}/questions`, { text: "Third" })).statusCode).toBe(200);
    expect((await postJson(follower, `/live/${live.code}/questions`, { text: "Fourth" })).statusCode).toBe(429);
    await app.liveRoutes.broadcaster.flush();
    const [stored] = await db.query<{ text: string }>(
      "select text from live_questions where text like 'Why%' order by id desc limit 1",
    );
    expect(stored?.text).toBe("Why\nthe tide?");

    // Questions turned off: a follower's question is refused with a 409 that says so.
    const another = await join(live.code);
    expect((await postJson(agents.owner, `/live/${live.code}/settings`, { questionsEnabled: false })).statusCode).toBe(
      200,
    );
    const off = await postJson(another, `/live/${live.code}/questions`, { text: "Still?" });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toBe("Questions are turned off for this session.");
    await end(live.code);
    await end(otherLive.code);
  });

  it("issue 35 items 2–4: the stream starts with the state, numbers events by seq, and resumes from Last-Event-ID", async () => {
    const live = await goLive(oids.public, 2);
    const stream = await openStream(base, `/live/${live.code}/events`);
    expect(stream.status).toBe(200);
    const first = await stream.next();
    expect(first.event).toBe("state");
    expect(first.data).toMatchObject({ type: "state", state: { step: 2, ended: false } });
    const seq = Number(first.id);

    expect((await postJson(agents.owner, `/live/${live.code}/step`, { step: 3 })).statusCode).toBe(200);
    const moved = await stream.next();
    expect(moved).toMatchObject({ id: String(seq + 1), event: "step", data: { type: "step", step: 3 } });
    stream.close();

    // A late joiner lands on the current step.
    const late = await openStream(base, `/live/${live.code}/events`);
    expect((await late.next()).data).toMatchObject({ type: "state", state: { step: 3 } });
    late.close();

    // Reconnecting with the last id it had: nothing is sent again; the next change comes.
    const resumed = await openStream(base, `/live/${live.code}/events`, { "last-event-id": String(seq + 1) });
    expect((await postJson(agents.owner, `/live/${live.code}/step`, { step: 0 })).statusCode).toBe(200);
    expect(await resumed.next()).toMatchObject({ id: String(seq + 2), event: "step", data: { step: 0 } });
    resumed.close();
    // Reconnecting with an older id: the state first (what it missed), then on.
    const behind = await openStream(base, `/live/${live.code}/events`, { "last-event-id": String(seq) });
    expect(await behind.next()).toMatchObject({ id: String(seq + 2), event: "state", data: { state: { step: 0 } } });

    // The presenter's stream gets reactions and hidden questions; followers never see a hidden one's text.
    const presenterCookies = [...agents.owner.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    expect((await openStream(base, `/live/${live.code}/events?as=presenter`)).status).toBe(403);
    const presenter = await openStream(base, `/live/${live.code}/events?as=presenter`, { cookie: presenterCookies });
    expect((await presenter.next()).event).toBe("state");
    const follower = await join(live.code);
    expect((await postJson(follower, `/live/${live.code}/reactions`, { reaction: "applause" })).statusCode).toBe(200);
    expect((await presenter.next()).data).toEqual({ type: "reactions", counts: { applause: 1 } });

    expect(
      (await postJson(follower, `/live/${live.code}/questions`, { text: "Secret <b>question</b>" })).statusCode,
    ).toBe(200);
    await app.liveRoutes.broadcaster.flush();
    const asked = (await behind.next()).data as Extract<LiveEvent, { type: "questions" }>;
    expect(asked.questions).toMatchObject([
      { text: "Secret <b>question</b>", votes: 0, answered: false, hidden: false },
    ]);
    const questionId = asked.questions[0]?.id ?? "";
    expect((await presenter.next()).data).toMatchObject({ type: "questions" });

    // One vote per follower.
    expect((await postJson(follower, `/live/${live.code}/questions/${questionId}/vote`, {})).json()).toEqual({
      counted: true,
    });
    expect((await postJson(follower, `/live/${live.code}/questions/${questionId}/vote`, {})).json()).toEqual({
      counted: false,
    });
    expect((await postJson(follower, `/live/${live.code}/questions/999999/vote`, {})).statusCode).toBe(404);
    await app.liveRoutes.broadcaster.flush();
    expect((await behind.next()).data).toMatchObject({ questions: [{ id: questionId, votes: 1 }] });
    await presenter.next();

    // Marking it answered reaches followers; hiding it sends them no text.
    expect(
      (await postJson(agents.owner, `/live/${live.code}/questions/${questionId}`, { answered: true })).statusCode,
    ).toBe(200);
    await app.liveRoutes.broadcaster.flush();
    expect((await behind.next()).data).toMatchObject({ questions: [{ id: questionId, answered: true }] });
    await presenter.next();
    expect(
      (await postJson(agents.owner, `/live/${live.code}/questions/${questionId}`, { hidden: true })).statusCode,
    ).toBe(200);
    await app.liveRoutes.broadcaster.flush();
    expect((await behind.next()).data).toMatchObject({ questions: [{ id: questionId, hidden: true, text: "" }] });
    expect((await presenter.next()).data).toMatchObject({
      questions: [{ hidden: true, text: "Secret <b>question</b>" }],
    });
    expect(
      (await postJson(agents.owner, `/live/${live.code}/questions/${questionId}`, { hidden: "yes" })).statusCode,
    ).toBe(400);

    // Ending: every stream hears it and is closed; the code stops working.
    await end(live.code);
    expect((await behind.next()).event).toBe("ended");
    await behind.ended;
    await presenter.ended;

    // Issue 35 item 3: the questions stay with the session and are listed on the deck's analytics.
    const manage = await agents.owner.get(`/dashboard/next/presentations/${oids.public}/`);
    expect(manage.statusCode).toBe(200);
    expect(manage.body).toContain("Questions from live sessions");
    expect(manage.body).toContain("Secret &lt;b&gt;question&lt;/b&gt;");
    expect(manage.body).toMatch(/1 vote<!-- -->|1 vote/);
  });

  it("issue 35 item 4: a follower that stops reading is dropped once its unsent bytes pass the limit; the others get every event", async () => {
    const live = await goLive(oids.public);
    const reader = await openStream(base, `/live/${live.code}/events`);
    await reader.next();
    // A follower that asks and then never reads: the kernel's buffers fill, then Node's.
    const stalled: Socket = netConnect((app.server.address() as AddressInfo).port, "127.0.0.1");
    stalled.on("error", () => {});
    await new Promise<void>((resolve) => stalled.once("connect", () => resolve()));
    stalled.write(`GET /live/${live.code}/events HTTP/1.1\r\nhost: localhost\r\n\r\n`);
    stalled.pause();
    while (app.liveHub.counts().followers < 2) await new Promise((resolve) => setTimeout(resolve, 5));

    const [session] = await db.query<{ id: string }>("select id::text as id from live_sessions where code = $1", [
      live.code,
    ]);
    const sessionId = session?.id ?? "";
    // 64 KiB events, 32 MiB in all (more than loopback's buffers hold), each once the reader has the one before.
    const big = "q".repeat(64 * 1024);
    const events = 512;
    for (let i = 0; i < events; i++) {
      app.liveHub.publish(sessionId, {
        type: "questions",
        seq: 1_000_000 + i,
        questions: [{ id: String(i), text: big, votes: 0, answered: false, hidden: false }],
      });
      while (reader.events.length < i + 2) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // The stalled one was dropped (its socket destroyed: it never reads the end of its stream).
    expect(app.liveHub.counts().followers).toBe(1);
    expect(reader.events.slice(1).map((event) => event.id)).toEqual(
      Array.from({ length: events }, (_, i) => String(1_000_000 + i)),
    );
    reader.close();
    stalled.destroy();
    await end(live.code);
  });
});

describe("issue 35: event streams and the page cache", () => {
  const [target] = testDatabaseTargets();
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  let base: string;

  beforeAll(async () => {
    if (!target) throw new Error("no test database");
    ({ app, db, close } = await createTestApp(target, { pageCacheMaxBytes: 4 * 1024 * 1024 }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => close());

  it("issue 35 item 4: an open stream leads no page-cache flight, so the next follower of the same address isn't held", async () => {
    const owner = new TestAgent(app);
    await owner.signUp("owner@live-cache.test");
    const ownerId = await userIdOf(db, "owner@live-cache.test");
    const oid = stableOid("live-cache:deck");
    await insertTestDeck(db, {
      oid,
      ownerId: ownerId,
      title: "Cached",
    });
    const token = owner.cookies.get("XSRF-TOKEN") ?? "";
    const live = await owner.request({
      method: "POST",
      url: `/p/presenter/${oid}/live`,
      payload: "{}",
      headers: { "content-type": "application/json", "x-xsrf-token": token },
    });
    const { code } = live.json() as PresenterLiveData;
    const first = await openStream(base, `/live/${code}/events`);
    expect((await first.next()).event).toBe("state");
    // Before issue 35's fix, this stream led a flight every later request for its address waited on (10 s).
    expect(app.pageCache?.flightsInProgress()).toBe(0);
    const second = await openStream(base, `/live/${code}/events`);
    expect((await second.next()).event).toBe("state");
    first.close();
    second.close();
  });
});
