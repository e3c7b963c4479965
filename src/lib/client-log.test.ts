import { describe, expect, it } from "vitest";
import {
  buildClientLogRecord,
  CLIENT_LOG_TIMEOUT_MS,
  createClientLogger,
  MISSING_LOG_ENDPOINT,
  NULL_LOG_MESSAGE,
} from "./client-log";

const NOW = Date.UTC(2026, 10, 22, 9, 30, 15, 250);

function recorder() {
  const sent: { url: string; init: RequestInit }[] = [];
  const printed: { level: string; args: unknown[] }[] = [];
  return {
    sent,
    printed,
    fetch: async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return { ok: true };
    },
    console: {
      info: (...args: unknown[]) => printed.push({ level: "info", args }),
      warn: (...args: unknown[]) => printed.push({ level: "warn", args }),
      error: (...args: unknown[]) => printed.push({ level: "error", args }),
    },
  };
}

type LoggerOptions = Parameters<typeof createClientLogger>[0];

/** A logger in session "s1" that sends and prints into `io`, with `options` on top. */
function loggerInto(
  io: ReturnType<typeof recorder>,
  options: Pick<LoggerOptions, "production" | "logApiEndpoint"> & Partial<LoggerOptions>,
) {
  return createClientLogger({ sessionId: () => "s1", fetch: io.fetch, console: io.console, ...options });
}

describe("the client log", () => {
  it("R3.12 a record carries the payload fields, the times and the defaults of the spec", () => {
    const record = buildClientLogRecord(
      { msg: "Loading chunk 3 failed", object: "player", presentation_id: "abcdefghijkl", extra: 1 },
      { now: NOW, pageStart: NOW - 1500, sessionId: "s1" },
    );
    expect(record).toEqual({
      msg: "Loading chunk 3 failed",
      object: "player",
      presentation_id: "abcdefghijkl",
      extra: 1,
      current_time: NOW,
      created: NOW / 1000,
      msecs: 250,
      client_datetime: "2026-11-22T09:30:15.250Z",
      action: "",
      trigger: "",
      category: "website",
      source: "",
      levelname: "INFO",
      name: "debug",
      levelno: 20,
      relativeCreated: 1500,
      platform: "website",
      session_id: "s1",
    });
    expect(
      buildClientLogRecord({ msg: "x", levelname: "ERROR" }, { now: NOW, pageStart: NOW, sessionId: "s" }).levelno,
    ).toBe(40);
    expect(
      buildClientLogRecord({ msg: "x", levelname: "WARN" }, { now: NOW, pageStart: NOW, sessionId: "s" }).levelno,
    ).toBe(30);
  });

  it("R7.6 in production: a POST of an array of one record, with a 20 s time-out; the response is ignored", async () => {
    const io = recorder();
    const logger = loggerInto(io, { production: true, logApiEndpoint: "/log/client", now: () => NOW, pageStart: NOW });
    await logger.log({ msg: "hello" });
    expect(io.sent).toHaveLength(1);
    const [{ url, init }] = io.sent as [{ url: string; init: RequestInit }];
    expect(url).toBe("/log/client");
    expect(init.method).toBe("POST");
    const body = JSON.parse(String(init.body));
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ msg: "hello", session_id: "s1", levelno: 20 });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(CLIENT_LOG_TIMEOUT_MS).toBe(20_000);
    expect(io.printed).toEqual([]);
    // A failing endpoint is ignored.
    const failing = loggerInto(io, {
      production: true,
      logApiEndpoint: "/log/client",
      fetch: () => Promise.reject(new TypeError("offline")),
    });
    await expect(failing.log({ msg: "lost" })).resolves.toBeUndefined();
  });

  it("R7.6 outside production it only writes to the console", async () => {
    const io = recorder();
    const logger = loggerInto(io, { production: false, logApiEndpoint: null });
    await logger.log({ msg: "careful", levelname: "WARN" });
    expect(io.sent).toEqual([]);
    expect(io.printed.map((line) => line.level)).toEqual(["warn"]);
  });

  it("R8.8 R8.9 production without an endpoint, and a null message, are errors with the spec's words", async () => {
    const io = recorder();
    const withoutEndpoint = loggerInto(io, { production: true, logApiEndpoint: null });
    await expect(withoutEndpoint.log({ msg: "x" })).rejects.toThrow(MISSING_LOG_ENDPOINT);
    expect(MISSING_LOG_ENDPOINT).toBe("Missing logApiEndpoint in production mode!");
    await expect(withoutEndpoint.log(null)).rejects.toThrow("logMessage is null");
    expect(NULL_LOG_MESSAGE).toBe("logMessage is null");
    expect(io.sent).toEqual([]);
  });
});
