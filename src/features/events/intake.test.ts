import http from "node:http";
import secureJson from "secure-json-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { createTestApp } from "../../server/testing";
import { parseEventJson, USAGE_EVENT_MAX_BYTES } from "./intake";

/**
 * Issue 14 item 1: a beacon is answered by the event intake straight from Node's HTTP server,
 * before Fastify. These tests go over a real socket (app.inject() never reaches the intake): what
 * a browser's sendBeacon meets, and what bad input gets.
 */
const LIMIT = 40;
const event = (name: string, sessionId: string) => [
  {
    core: { type: "Analytics", schema_id: 1, client_time: Date.now(), event_source: "Js", event_type: name },
    event_source: { single_page_session_id: "7a0d1c55-1b7e-4f3a-9c55-5f7f3b8f0d11" },
    platform: { type: "Web", id: null, referer: null, url: "http://127.0.0.1/p/abcdefghijkl/" },
    user: { session_id: sessionId },
    body: { event_name: name, oid: "abcdefghijkl" },
  },
];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One POST over a fresh connection; `chunks` are written one by one without a Content-Length when given. */
function post(
  base: string,
  path: string,
  body: string | string[],
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const chunked = Array.isArray(body);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: "POST",
        agent: false,
        headers: chunked ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    // The server may answer (413) and close before every chunk is written.
    request.on("error", (error) => (chunked ? undefined : reject(error)));
    if (chunked) {
      for (const chunk of body) request.write(chunk);
      request.end();
    } else request.end(body);
  });
}

describe.each(testDatabaseTargets())("usage-event intake on a socket (issue 14, $name)", (target) => {
  let served: Awaited<ReturnType<typeof createTestApp>>;
  let base = "";
  beforeAll(async () => {
    served = await createTestApp(target, { rateLimitPerMinute: LIMIT });
    base = await served.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await served?.close();
  });

  const storedFor = async (sessionId: string) => {
    await served.app.usageEvents.flush();
    return served.db.query<{ event_name: string; payload: { user: { session_id: string } } }>(
      "select event_name, payload from usage_event_log where session_id = $1",
      [sessionId],
    );
  };

  it("issue 14 item 1: a beacon's event is answered 204 before Fastify and stored as sent, on both paths", async () => {
    for (const path of ["/log/json", "/fallback/json/", "/log/json?via=beacon"]) {
      const session = `intake-ok-${path}`;
      const answer = await post(base, path, JSON.stringify(event("transcript_opened", session)), {
        "content-type": "application/json;charset=UTF-8",
      });
      expect(answer.status, path).toBe(204);
      expect(answer.text).toBe("");
      const rows = await storedFor(session);
      expect(rows.map((row) => row.event_name)).toEqual(["transcript_opened"]);
      expect(rows[0]?.payload.user.session_id).toBe(session);
    }
  });

  it("issue 14 item 1: what isn't one usage event gets 400 with a message, and nothing is stored", async () => {
    const session = "intake-bad";
    for (const body of [
      "not json",
      "{}",
      "[]",
      JSON.stringify([...event("x", session), ...event("y", session)]),
      JSON.stringify([{ nope: true }]),
      // Prototype poisoning is refused as Fastify's onProtoPoisoning "error" would.
      `[{"__proto__":{"polluted":true},"core":{"type":"Analytics","event_type":"x"},"user":{"session_id":"${session}"},"body":{"event_name":"x"}}]`,
      // PostgreSQL can't store a NUL: refused here, not left to fail a batch.
      JSON.stringify(event("transcript_opened", `${session}\u0000`)),
    ]) {
      const answer = await post(base, "/log/json", body);
      expect(answer.status, body.slice(0, 60)).toBe(400);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text).message).toBe("A usage event must be a JSON array holding one event.");
    }
    expect(await storedFor(session)).toEqual([]);
  });

  it("issue 14 item 1: a body over the limit gets 413, whether it says its length or not", async () => {
    const big = JSON.stringify(event("transcript_opened", "x".repeat(USAGE_EVENT_MAX_BYTES)));
    const declared = await post(base, "/log/json", big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text).message).toBe("A usage event must be at most 8 KiB.");
    const chunks = Array.from({ length: 12 }, (_, i) => (i === 0 ? `[{"pad":"` : "x".repeat(1024)));
    const streamed = await post(base, "/log/json", chunks, { "content-type": "application/json" });
    expect(streamed.status).toBe(413);
  });

  it("issue 14 item 1: other requests reach Fastify's routes, which answer the same", async () => {
    const text = await post(base, "/log/json", "hello", { "content-type": "text/plain" });
    expect(text.status).toBe(400);
    expect(JSON.parse(text.text).message).toBe("A usage event must be a JSON array holding one event.");
    const xml = await post(base, "/log/json", "<event/>", { "content-type": "application/xml" });
    expect(xml.status).toBe(415);
    const get = await fetch(`${base}/log/json`);
    expect(get.status).toBe(404);
  });

  it("issue 14 item 1: each address sends at most the request limit's events a minute; then 429 with Retry-After", async () => {
    // Earlier tests in this file spent part of this address's minute; fill the rest.
    let answer: Answer | null = null;
    for (let i = 0; i < LIMIT + 1; i += 1) {
      answer = await post(base, "/log/json", JSON.stringify(event("transcript_opened", `intake-limit-${i}`)));
      if (answer.status === 429) break;
      expect(answer.status).toBe(204);
    }
    expect(answer?.status).toBe(429);
    expect(Number(answer?.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(answer?.text ?? "{}").message).toMatch(/^Too many requests\. Please wait \d+ seconds/);
  });
});

describe("issue 32 item 4: a beacon's JSON read without secure-json-parse's scan where it can't matter", () => {
  const careful = (text: string) => {
    try {
      return { value: secureJson.parse(text, null, { protoAction: "error", constructorAction: "error" }) };
    } catch {
      return { refused: true };
    }
  };
  const quick = (text: string) => {
    try {
      return { value: parseEventJson(text) };
    } catch {
      return { refused: true };
    }
  };

  it("answers every body as secure-json-parse does: poisoned keys (plain, escaped, nested), a byte order mark, bad JSON", () => {
    const bodies = [
      JSON.stringify(event("x", "s")),
      `[{"__proto__":{"polluted":true}}]`,
      `[{"a":{"b":{"__proto__":{"polluted":true}}}}]`,
      `[{"\\u005f_proto__":{"polluted":true}}]`,
      `[{"_\\u005fproto__":{"polluted":true}}]`,
      `[{"constructor":{"prototype":{"polluted":true}}}]`,
      `[{"\\u0063onstructor":{"prototype":{"polluted":true}}}]`,
      `[{"constructor":"just a word"}]`,
      `[{"text":"a __proto__ in a value"}]`,
      `[{"text":"caf\\u00e9"}]`,
      `\ufeff${JSON.stringify(event("x", "s"))}`,
      "not json",
      "",
      "[",
    ];
    for (const body of bodies) expect(quick(body), body).toEqual(careful(body));
    // And the poisoned ones are refused, whichever way they were read.
    for (const body of bodies.slice(1, 7)) expect(quick(body), body).toEqual({ refused: true });
  });
});
