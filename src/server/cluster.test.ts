import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminQuery, scratchDatabase } from "../db/testing/scratch-database";
import { MAX_QUICK_DEATHS, QUICK_DEATH_MS, RESPAWN_BACKOFF_MS, RespawnPolicy } from "./cluster";
import { ConfigError, configFromEnv, MAX_WORKERS } from "./config";
import { freePort, spawnWithOutput } from "./testing/child-output";
import { buildServer } from "./testing/server-build";

/**
 * Issue 11, item 4: PODIUM_WORKERS. The rules (config, respawn policy) as units, and the real
 * thing: the server bundle built from these sources, started as a person starts it, its worker
 * processes counted from /proc, killed, and stopped with SIGTERM while a request is in flight.
 */

describe("issue 11 item 4: PODIUM_WORKERS in the config", () => {
  const workers = (env: NodeJS.ProcessEnv) => configFromEnv(env, { clientDir: null }).workers;
  const postgres = { DATABASE_URL: "postgres://root@127.0.0.1:5432/podium" };

  it("defaults to one process per core on PostgreSQL and to one on PGlite", () => {
    expect(workers({})).toBe(1);
    expect(workers(postgres)).toBe(Math.min(MAX_WORKERS, availableParallelism()));
    expect(workers({ ...postgres, PODIUM_WORKERS: "3" })).toBe(3);
    expect(workers({ PODIUM_WORKERS: "1" })).toBe(1);
  });

  it("takes whole numbers from 1 to 64 only", () => {
    expect(workers({ ...postgres, PODIUM_WORKERS: "64" })).toBe(64);
    for (const bad of ["0", "65", "1.5", "two", "-2"]) {
      expect(() => workers({ ...postgres, PODIUM_WORKERS: bad })).toThrow(
        `PODIUM_WORKERS must be a whole number from 1 to 64, not "${bad}"`,
      );
    }
  });

  it("refuses more than one process on PGlite, saying why and what to do", () => {
    expect(() => workers({ PODIUM_WORKERS: "2" })).toThrow(ConfigError);
    expect(() => workers({ PODIUM_WORKERS: "2" })).toThrow(/PGlite\) lives inside one process.*Set DATABASE_URL/);
  });
});

describe("issue 11 item 4: replacing dead workers", () => {
  it("replaces a worker that served for a while at once, every time", () => {
    const policy = new RespawnPolicy();
    for (let i = 0; i < MAX_QUICK_DEATHS * 2; i++) {
      expect(policy.afterDeath(QUICK_DEATH_MS)).toEqual({ action: "respawn", delayMs: 0 });
    }
  });

  it("backs off when workers keep dying right after they start, and gives up after a few in a row", () => {
    const policy = new RespawnPolicy();
    const delays: number[] = [];
    for (let i = 1; i < MAX_QUICK_DEATHS; i++) {
      const decision = policy.afterDeath(100);
      if (decision.action !== "respawn") throw new Error(`gave up after ${i} deaths`);
      delays.push(decision.delayMs);
    }
    expect(delays[0]).toBe(0);
    expect(delays[1]).toBe(RESPAWN_BACKOFF_MS);
    for (let i = 2; i < delays.length; i++) expect(delays[i]).toBe(2 * (delays[i - 1] ?? 0));
    expect(policy.afterDeath(100)).toEqual({ action: "give-up", quickDeaths: MAX_QUICK_DEATHS });
  });

  it("starts counting afresh after a worker that lived", () => {
    const policy = new RespawnPolicy();
    for (let i = 1; i < MAX_QUICK_DEATHS; i++) policy.afterDeath(0);
    expect(policy.afterDeath(QUICK_DEATH_MS + 1)).toEqual({ action: "respawn", delayMs: 0 });
    expect(policy.afterDeath(0)).toEqual({ action: "respawn", delayMs: 0 });
  });
});

// --- the real processes -------------------------------------------------------------------------

/**
 * The server bundle of these sources (no browser assets: pages render without scripts), in a
 * folder of this run's own, so two test runs at once don't build over each other.
 */
const BUILD_DIR = resolve(`node_modules/.cache/podium-test-cluster-${process.pid}`);
const HOST = "127.0.0.1";
const START_TIMEOUT_MS = 60_000;
const hasProc = existsSync("/proc/self/stat");
const adminUrl = process.env.TEST_DATABASE_URL;

interface Run {
  child: ChildProcess;
  pid: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: Run[] = [];

function start(env: Record<string, string>): Run {
  const { child, output } = spawnWithOutput([join(BUILD_DIR, "main.js")], {
    ...process.env,
    PODIUM_LOG: "off",
    HOST,
    NODE_ENV: "production",
    ...env,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal })),
  );
  if (child.pid === undefined) throw new Error("the server did not start");
  const run = { child, pid: child.pid, output, exited };
  runs.push(run);
  return run;
}

/** The processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return children.sort((a, b) => a - b);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** Podium with two workers on a fresh PostgreSQL database (freshDatabase), once it says it is serving. */
async function startTwoWorkers(admin: string, env: Record<string, string> = {}) {
  const databaseUrl = await freshDatabase(admin);
  const port = await freePort();
  const run = start({ PORT: String(port), DATABASE_URL: databaseUrl, PODIUM_WORKERS: "2", ...env });
  await expect.poll(run.output, { timeout: START_TIMEOUT_MS }).toContain("podium: serving");
  return { databaseUrl, port, run };
}

/** A fresh PostgreSQL database on TEST_DATABASE_URL, dropped after the test (as db/testing/ does). */
async function freshDatabase(admin: string): Promise<string> {
  const { url, drop } = await scratchDatabase(admin);
  cleanups.push(drop);
  return url;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      for (const pid of childrenOf(run.pid)) process.kill(pid, "SIGKILL");
      run.child.kill("SIGKILL");
      await run.exited;
    }
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Reads a socket until `done` says what arrived is enough. A request written by hand keeps its
 * connection, so the test knows the worker holding it has read the headers (100 Continue).
 */
function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (done(text)) {
        socket.off("data", onData);
        socket.off("error", reject);
        resolveText(text);
      }
    };
    socket.on("data", onData);
    socket.on("error", reject);
    socket.once("close", () => reject(new Error(`the connection closed after: ${text || "(nothing)"}`)));
  });
}

describe.skipIf(!hasProc)("issue 11 item 4: the server as several processes", () => {
  beforeAll(async () => {
    // The same server build as `npm run build` (vite.config.ts), from the sources under test.
    await buildServer(BUILD_DIR);
  }, 120_000);

  afterAll(() => rmSync(BUILD_DIR, { recursive: true, force: true }));

  it("issue 11 item 4: on PGlite, PODIUM_WORKERS=2 exits 1 with a message saying why, and forks nothing", async () => {
    const run = start({ PORT: String(await freePort()), PODIUM_DATA_DIR: "memory://", PODIUM_WORKERS: "2" });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(run.output()).toContain("PODIUM_WORKERS=2 needs PostgreSQL");
    expect(run.output()).toContain("Set DATABASE_URL to a PostgreSQL server, or PODIUM_WORKERS=1.");
    expect(run.output()).not.toContain("podium: serving");
  });

  it("issue 11 item 4: on PGlite by default it is one process, no cluster", async () => {
    const port = await freePort();
    const run = start({ PORT: String(port), PODIUM_DATA_DIR: "memory://", PODIUM_SEED: "off" });
    await expect.poll(run.output, { timeout: START_TIMEOUT_MS }).toContain("podium: serving");
    expect(run.output()).toContain("one process)");
    expect(childrenOf(run.pid)).toEqual([]);
    expect((await fetch(`http://${HOST}:${port}/healthz`)).status).toBe(200);
    // A page renders in this build too (a build whose JSX needs React's development runtime
    // started, answered /healthz, and failed every page).
    const home = await fetch(`http://${HOST}:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<h1");
    run.child.kill("SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it.skipIf(!adminUrl)(
    "issue 11 item 4: PODIUM_WORKERS=2 on PostgreSQL: migrates and seeds once, serves from two processes, replaces a dead one, and SIGTERM lets a request in flight finish before the primary exits 0 with no worker left",
    async () => {
      if (!adminUrl) return;
      const { databaseUrl, port, run } = await startTwoWorkers(adminUrl);
      expect(run.output()).toContain("production, 2 workers)");
      // The primary prepared the database; the workers didn't do it again.
      expect(count(run.output(), "applied migrations")).toBe(1);
      expect(count(run.output(), "seeded demo content")).toBe(1);
      expect(run.output()).not.toContain("demo content already present");

      const workers = childrenOf(run.pid);
      expect(workers).toHaveLength(2);
      expect(workers).not.toContain(run.pid);
      for (let i = 0; i < 4; i++) expect((await fetch(`http://${HOST}:${port}/healthz`)).status).toBe(200);

      // A worker that dies is replaced, and the port keeps answering meanwhile.
      const [dead, survivor] = workers as [number, number];
      process.kill(dead, "SIGKILL");
      await expect.poll(run.output, { timeout: START_TIMEOUT_MS }).toContain("replaced (pid");
      expect(run.output()).toMatch(new RegExp(`worker \\d \\(pid ${dead}\\) died unexpectedly \\(signal SIGKILL\\)`));
      const replaced = childrenOf(run.pid);
      expect(replaced).toHaveLength(2);
      expect(replaced).toContain(survivor);
      expect(replaced).not.toContain(dead);
      expect((await fetch(`http://${HOST}:${port}/healthz`)).status).toBe(200);

      // A request in flight: its headers are read (the worker answered 100 Continue), its body not yet sent.
      const marker = `in flight during SIGTERM ${randomBytes(4).toString("hex")}`;
      const body = JSON.stringify([{ msg: marker, levelname: "INFO", levelno: 20, session_id: "cluster-test" }]);
      const socket = connect(port, HOST);
      await new Promise((done) => socket.once("connect", done));
      socket.write(
        `POST /log/client HTTP/1.1\r\nHost: ${HOST}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      );
      await readUntil(socket, (text) => text.includes("100 Continue\r\n\r\n"));

      run.child.kill("SIGTERM");
      await expect.poll(run.output, { timeout: 10_000 }).toContain("(worker 1): SIGTERM received");
      await expect.poll(run.output, { timeout: 10_000 }).toContain("(worker 2): SIGTERM received");
      // They stopped taking new connections while the request waits for its body.
      await expect
        .poll(
          () =>
            fetch(`http://${HOST}:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
              () => "answered",
              () => "refused",
            ),
          { timeout: 10_000 },
        )
        .toBe("refused");
      expect(run.output()).not.toContain("podium: stopped");

      const answer = readUntil(socket, (text) => /HTTP\/1\.1 204[\s\S]*?\r\n\r\n/.test(text));
      socket.write(body);
      expect(await answer).toMatch(/HTTP\/1\.1 204 No Content/);
      socket.destroy();

      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(run.output()).toContain("podium: stopped (2 workers)");
      expect(count(run.output(), "stopped\n")).toBeGreaterThanOrEqual(2);
      for (const pid of replaced) expect(alive(pid)).toBe(false);
      const stored = await adminQuery<{ n: number }>(
        databaseUrl,
        `select count(*)::int as n from client_logs where msg = '${marker}'`,
      );
      expect(stored[0]?.n).toBe(1);
    },
    120_000,
  );

  it.skipIf(!adminUrl)(
    "issue 11 item 4: a request that never ends holds the shutdown only until the grace period, then the primary exits 1 and says so",
    async () => {
      if (!adminUrl) return;
      const { port, run } = await startTwoWorkers(adminUrl, { PODIUM_SEED: "off" });
      const workers = childrenOf(run.pid);
      // Its headers are read, and its body never comes.
      const socket = connect(port, HOST);
      await new Promise((done) => socket.once("connect", done));
      socket.on("error", () => {});
      socket.write(
        `POST /log/client HTTP/1.1\r\nHost: ${HOST}:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
      );
      await readUntil(socket, (text) => text.includes("100 Continue\r\n\r\n"));
      const stopAsked = Date.now();
      run.child.kill("SIGTERM");

      expect(await run.exited).toEqual({ code: 1, signal: null });
      // serve.ts's SHUTDOWN_GRACE_MS: not before it, and not long after.
      expect(Date.now() - stopAsked).toBeGreaterThanOrEqual(9_000);
      expect(run.output()).toMatch(/shutdown took too long/);
      expect(run.output()).not.toContain("podium: stopped (2 workers)");
      for (const pid of workers) expect(alive(pid)).toBe(false);
      socket.destroy();
    },
    120_000,
  );

  it.skipIf(!adminUrl)(
    "issue 11 item 4: workers that keep dying right after they start make the primary give up with exit 1",
    async () => {
      if (!adminUrl) return;
      const { databaseUrl, run } = await startTwoWorkers(adminUrl, { PODIUM_SEED: "off" });
      const workers = childrenOf(run.pid);
      expect(workers).toHaveLength(2);
      // With the database gone, every replacement fails as it opens it.
      await adminQuery(adminUrl, `drop database ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
      process.kill(workers[0] as number, "SIGKILL");

      expect(await run.exited).toEqual({ code: 1, signal: null });
      const output = run.output();
      expect(output).toContain(`(${MAX_QUICK_DEATHS} in a row, the last with exit code 1); giving up`);
      expect(output).toContain("starting a new one in 1 s");
      expect(output).toContain("starting a new one in 2 s");
      // The killed worker counts as a quick death too unless its start took QUICK_DEATH_MS on a busy machine.
      expect(count(output, "died unexpectedly")).toBeGreaterThanOrEqual(MAX_QUICK_DEATHS - 1);
      expect(count(output, "died unexpectedly")).toBeLessThanOrEqual(MAX_QUICK_DEATHS);
      expect(childrenOf(run.pid)).toEqual([]);
      for (const pid of workers) expect(alive(pid)).toBe(false);
    },
    120_000,
  );
});
