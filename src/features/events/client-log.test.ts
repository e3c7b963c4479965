import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { buildClientLogRecord } from "../../lib/client-log";
import { createTestApp } from "../../server/testing";
import { recentClientLogs } from "./client-log-repository";
import { CLIENT_LOG_PATH } from "./usage-event";

describe.each(testDatabaseTargets())("the client-log endpoint on $name", (target) => {
  let app: FastifyInstance;
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, db, close } = await createTestApp(target));
  });
  afterAll(() => close());

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: "POST",
      url: CLIENT_LOG_PATH,
      headers: { "content-type": "application/json", ...headers },
      payload: JSON.stringify(payload),
    });

  it("R7.6 R3.12 stores a record sent as an array of one, without a CSRF token (it acts for no one)", async () => {
    const record = buildClientLogRecord(
      { msg: "Loading chunk 7 failed", levelname: "ERROR", object: "player", presentation_id: "abcdefghijkl" },
      { now: Date.now(), pageStart: Date.now() - 10, sessionId: "session-1" },
    );
    const response = await post([record]);
    expect(response.statusCode).toBe(204);
    const [stored] = await recentClientLogs(db, 1);
    expect(stored).toMatchObject({
      levelname: "ERROR",
      msg: "Loading chunk 7 failed",
      sessionId: "session-1",
      presentationOid: "abcdefghijkl",
    });
    expect(stored?.record).toMatchObject({ category: "website", name: "debug", platform: "website", levelno: 40 });
  });

  it("refuses what isn't one record with a clear 400, and stores nothing", async () => {
    const before = (await recentClientLogs(db, 100)).length;
    const record = buildClientLogRecord({ msg: "x" }, { now: Date.now(), pageStart: 0, sessionId: "s" });
    for (const payload of [[], [record, record], { msg: "x" }, [{ ...record, levelname: "LOUD" }], [{ msg: "x" }]]) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().message).toBe("A client log must be a JSON array holding one record.");
    }
    const huge = await post([{ ...record, msg: "x".repeat(9000) }]);
    expect(huge.statusCode).toBe(413);
    expect((await recentClientLogs(db, 100)).length).toBe(before);
  });
});
