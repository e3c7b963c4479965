// Benchmark of the like calls (spec §7): likes per second and latency of PUT/DELETE
// /api/v4/presentation/{oid}/like/ at 50 connections, against PGlite and against PostgreSQL,
// beside Fastify's own hello-world measured on the same machine in the same run (the ratio is
// the figure to compare: goal ≥ 10% of hello-world on PostgreSQL).
//
// Each connection is a different signed-in person who alternates PUT and DELETE on one public
// presentation. The people sign up and the presentation is imported through the HTTP API, as a
// browser would. After each run the server is stopped and the stored likes_count is compared
// with the rows in `likes`.
//
// This reports figures; it is not a pass/fail test on speed. It exits non-zero only for
// correctness failures: request errors, non-2xx answers, wrong answers, or a count that drifted.
//
// Besides req/s and latency it reports the CPU milliseconds per request of the server, of
// PostgreSQL's processes and of this process (the load generator), read from /proc: on a
// 2-core machine where all three share the CPU, these say more steadily what a change saves.
//
// Usage: npm run bench:likes [-- --duration 10 --warmup 2 --connections 50 --build --only postgres|pglite]
// Runs the build (made here when missing, or with --build; a stale build is only reported).
// PostgreSQL is taken at 127.0.0.1:5432 (user root, database test, trust auth); a fresh database
// is created and dropped; without PostgreSQL that part is skipped.
import { randomBytes } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import * as support from "./support.mjs";

process.chdir(support.ROOT);

const DURATION_S = support.option("duration", 10);
const WARMUP_S = support.option("warmup", 2);
const CONNECTIONS = Math.floor(support.option("connections", 50));
/** `--only postgres` (or pglite) measures hello-world and that one target. */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;

/** Signups hash a password with scrypt: a few at a time. */
const SIGNUP_CONCURRENCY = 5;
/** The goal of the issue, reported (never enforced): like throughput ≥ 10% of hello-world on PostgreSQL. */
const GOAL_RATIO = 0.1;

// --- processes ------------------------------------------------------------------------------

function startPodium(port, database) {
  return support.startPodium(port, database, {
    PODIUM_SEED: "off",
    PODIUM_LIKE_RATE_LIMIT: "100000000",
    // All the people sign up from 127.0.0.1 (10 an hour per address by default).
    PODIUM_SIGNUP_RATE_LIMIT: "100000000",
    // One process on PostgreSQL too (its default is one per core, issue 11): the figures and the CPU
    // per request (read from this process id) stay comparable with earlier runs.
    PODIUM_WORKERS: "1",
  });
}

// --- CPU accounting ----------------------------------------------------------------------------

/**
 * Where the machine's CPU goes during a measured run: the server, PostgreSQL, and this process
 * (the load generator), in CPU milliseconds per request. On 2 cores these three share the CPU,
 * so they say what a change saves, more steadily than req/s.
 */
const cpuMeter = (serverPid) =>
  support.cpuMeter({
    server: () => (serverPid ? support.cpuSecondsOf(serverPid) : null),
    postgres: support.postgresCpuSeconds,
    loadGenerator: support.ownCpuSeconds,
  });

// --- HTTP setup (not measured) ------------------------------------------------------------

/** Signs up through the real form, as a browser would; keeps the session and XSRF cookies. */
function signUp(port, index, runId) {
  return support.signUpThroughForm(port, { lastName: `Person ${index}`, email: `bench-${runId}-${index}@bench.test` });
}

async function signUpMany(port, count) {
  const runId = randomBytes(3).toString("hex");
  const users = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      users[index] = await signUp(port, index, runId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIGNUP_CONCURRENCY, count) }, worker));
  return users;
}

async function importPresentation(port, owner) {
  const { body, contentType } = support.multipart(
    { _csrf: owner.xsrf, privacy: "public", schemaVersion: "2", title: "Bench" },
    { name: "bench.md", content: "# Bench\n---\n# Two" },
  );
  const response = await support.request(port, {
    method: "POST",
    path: "/dashboard/next/import",
    headers: { "content-type": contentType, cookie: owner.jar.header() },
    body,
  });
  const oid = /\/presentations\/([^/]+)\//.exec(String(response.headers.location ?? ""))?.[1];
  if (response.status !== 303 || !oid) {
    throw new Error(`POST /dashboard/next/import answered ${response.status} (location ${response.headers.location})`);
  }
  return oid;
}

const likeHeaders = (user) => ({ "content-type": "application/json", "x-xsrf-token": user.xsrf, cookie: user.cookie });

/** One like and one unlike before the load, so a broken setup fails with a clear message. */
async function checkLikeOnce(port, user, oid) {
  const path = `/api/v4/presentation/${oid}/like/`;
  for (const [method, liked, likesCount] of [
    ["PUT", true, 1],
    ["DELETE", false, 0],
  ]) {
    const answer = await support.request(port, { method, path, headers: likeHeaders(user) });
    const response = { ...answer, body: answer.body.toString() };
    const expected = JSON.stringify({ liked, likesCount });
    if (response.status !== 200 || JSON.stringify(JSON.parse(response.body)) !== expected) {
      throw new Error(
        `${method} ${path} answered ${response.status} ${response.body.slice(0, 200)}; expected ${expected}`,
      );
    }
  }
}

// --- load -------------------------------------------------------------------------------------

const cannon = (options) => support.cannon({ connections: CONNECTIONS, ...options });

/**
 * Like calls: connection i is person i, alternating PUT and DELETE. Each answer is checked
 * (200, `liked` as asked, a count within 0…people); wrong answers are counted.
 */
async function loadLikes(port, users, oid, duration) {
  const path = `/api/v4/presentation/${oid}/like/`;
  const wrong = { count: 0, samples: [] };
  let nextUser = 0;
  const check = (liked) => (status, body) => {
    if (status !== 200) return; // counted by autocannon as non-2xx
    let answer = null;
    try {
      answer = JSON.parse(body);
    } catch {
      answer = null;
    }
    const ok =
      answer?.liked === liked &&
      Number.isInteger(answer.likesCount) &&
      answer.likesCount >= 0 &&
      answer.likesCount <= users.length;
    if (!ok) {
      wrong.count += 1;
      if (wrong.samples.length < 5) wrong.samples.push(String(body).slice(0, 200));
    }
  };
  const result = await cannon({
    url: `http://${support.HOST}:${port}`,
    duration,
    setupClient(client) {
      const user = users[nextUser++ % users.length];
      client.setRequests([
        { method: "PUT", path, headers: likeHeaders(user), onResponse: check(true) },
        { method: "DELETE", path, headers: likeHeaders(user), onResponse: check(false) },
      ]);
    },
  });
  return { result, wrong };
}

function figures(result, wrong = { count: 0, samples: [] }) {
  const statusCodes = support.statusCodesOf(result);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    latencyMs: { mean: result.latency.mean, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    wrongAnswers: wrong.count,
    wrongAnswerSamples: wrong.samples,
    statusCodes,
  };
}

// --- targets ------------------------------------------------------------------------------------

function benchHelloWorld() {
  return support.measureInline("hello-world", support.HELLO_WORLD, async (origin, server) => {
    const url = `${origin}/`;
    if (WARMUP_S > 0) await cannon({ url, duration: WARMUP_S });
    const cpu = cpuMeter(server.pid);
    const result = await cannon({ url, duration: DURATION_S });
    return { ...figures(result), cpuMsPerRequest: cpu(result.requests.total) };
  });
}

/**
 * One like target: start the server, set up people and a presentation, warm up, measure,
 * stop the server (so every call in flight has finished), then count with `count(database)`.
 */
async function benchLikes(name, database, count) {
  const port = await support.freePort();
  const server = await startPodium(port, database);
  let stopped = false;
  try {
    const setupStart = performance.now();
    const users = await signUpMany(port, CONNECTIONS);
    const oid = await importPresentation(port, users[0]);
    await checkLikeOnce(port, users[0], oid);
    const setupMs = Math.round(performance.now() - setupStart);
    console.log(`  ${name}: ${users.length} people signed up and a presentation imported in ${setupMs} ms`);
    if (WARMUP_S > 0) await loadLikes(port, users, oid, WARMUP_S);
    const cpu = cpuMeter(server.pid);
    const { result, wrong } = await loadLikes(port, users, oid, DURATION_S);
    const cpuMsPerRequest = cpu(result.requests.total);
    const stop = await server.stop();
    stopped = true;
    if (stop.code !== 0) {
      console.warn(`  ${name}: the server exited with ${stop.signal ?? stop.code}:\n${server.stderr()}`);
    }
    const stored = await count(oid);
    return {
      ...figures(result, wrong),
      cpuMsPerRequest,
      count: { ...stored, exact: stored.likesCount === stored.rows && stored.rows <= users.length },
    };
  } finally {
    if (!stopped) await server.stop();
  }
}

const COUNT_SQL =
  "select (select coalesce(sum(c.count), 0)::int from like_counters c where c.presentation_id = p.id) as likes_count, (select count(*)::int from likes l where l.presentation_id = p.id) as rows " +
  "from presentations p where p.oid = $1";

const countRow = (rows) => {
  const row = rows[0];
  if (!row) throw new Error("the benchmark's presentation is not in the database");
  return { likesCount: Number(row.likes_count), rows: Number(row.rows) };
};

async function benchPglite() {
  const dataDir = support.temporaryDirectory("podium-bench-pglite-");
  return benchLikes("PGlite", { dataDir }, async (oid) => {
    // The server has exited, so its data directory can be opened here.
    const db = new PGlite(dataDir);
    try {
      return countRow((await db.query(COUNT_SQL, [oid])).rows);
    } finally {
      await db.close();
    }
  });
}

async function postgresAvailable() {
  const client = new pg.Client({ connectionString: support.PG_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error.message };
  } finally {
    await client.end().catch(() => {});
  }
}

async function benchPostgres() {
  const { url } = await support.temporaryDatabase(support.PG_ADMIN_URL);
  return benchLikes("PostgreSQL", { url }, async (oid) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return countRow((await client.query(COUNT_SQL, [oid])).rows);
    } finally {
      await client.end().catch(() => {});
    }
  });
}

// --- report ---------------------------------------------------------------------------------

function printTable(rows, hello) {
  const header = ["target", "req/s", "p50 ms", "p99 ms", "errors", "timeouts", "non-2xx", "wrong", "vs hello"];
  const widths = [12, 8, 8, 8, 7, 9, 8, 6, 9];
  support.printTargets(rows, header, widths, (name, row) => {
    const ratio =
      hello && row !== hello ? `${((row.requestsPerSecond / hello.requestsPerSecond) * 100).toFixed(1)}%` : "";
    return [
      name,
      row.requestsPerSecond,
      support.ms(row.latencyMs.p50),
      support.ms(row.latencyMs.p99),
      row.errors,
      row.timeouts,
      row.non2xx,
      row.wrongAnswers ?? 0,
      ratio || (row === hello ? "100%" : ""),
    ];
  });
}

async function main() {
  support.ensureBuild();
  console.log(
    `Like calls benchmark: ${CONNECTIONS} connections (one signed-in person each, alternating PUT/DELETE on one presentation), ` +
      `${DURATION_S} s per target after a ${WARMUP_S} s warm-up, on ${support.HOST}`,
  );
  // Load, the benchmark itself and the servers share these CPUs: other work on the machine skews the figures.
  const machine = { cpus: availableParallelism(), loadAverage1m: Number(loadavg()[0].toFixed(2)) };
  console.log(`  machine: ${machine.cpus} CPUs, load average ${machine.loadAverage1m} before the run`);
  const failures = [];
  const hello = await benchHelloWorld();
  console.log(`  hello-world: ${hello.requestsPerSecond} req/s`);
  const pglite = ONLY === "postgres" ? null : await benchPglite();
  const available = ONLY === "pglite" ? { ok: false, reason: "--only pglite" } : await postgresAvailable();
  let postgres = null;
  let postgresNote = null;
  if (available.ok) {
    postgres = await benchPostgres();
  } else {
    postgresNote = `PostgreSQL at ${support.PG_ADMIN_URL} is unreachable (${available.reason}); skipped.`;
    console.log(`  ${postgresNote}`);
  }

  console.log("");
  const rows = [
    ["hello-world", hello],
    ["PGlite", pglite],
    ["PostgreSQL", postgres],
  ];
  printTable(rows, hello);
  console.log("");
  for (const [name, row] of rows) {
    if (!row) continue;
    const codes = Object.entries(row.statusCodes)
      .map(([code, n]) => `${code}×${n}`)
      .join(", ");
    console.log(`${name}: ${row.requests} requests (${codes || "no answers"})`);
    const cpu = row.cpuMsPerRequest;
    if (cpu) {
      const part = (label, value) => (value === null ? null : `${label} ${value.toFixed(3)}`);
      const parts = [
        part("server", cpu.server),
        part("PostgreSQL", cpu.postgres),
        part("load generator", cpu.loadGenerator),
      ];
      console.log(`  CPU ms per request: ${parts.filter(Boolean).join(", ")}`);
    }
    if (row.count) {
      console.log(
        `  count after the run: likes_count ${row.count.likesCount}, rows ${row.count.rows} → ${row.count.exact ? "exact" : "DRIFTED"}`,
      );
      if (!row.count.exact) failures.push(`${name}: likes_count ${row.count.likesCount} ≠ ${row.count.rows} rows`);
    }
    const bad = row.errors + row.timeouts + row.non2xx + (row.wrongAnswers ?? 0);
    if (bad > 0) {
      failures.push(
        `${name}: ${row.errors} errors, ${row.timeouts} timeouts, ${row.non2xx} non-2xx, ${row.wrongAnswers ?? 0} wrong answers`,
      );
      for (const sample of row.wrongAnswerSamples ?? []) console.log(`  wrong answer: ${sample}`);
    }
  }
  if (postgres) {
    const ratio = postgres.requestsPerSecond / hello.requestsPerSecond;
    console.log(
      `Goal (like throughput ≥ ${GOAL_RATIO * 100}% of hello-world on PostgreSQL): ${(ratio * 100).toFixed(1)}% — ${ratio >= GOAL_RATIO ? "met" : "not met"} (reported, not enforced)`,
    );
  } else if (postgresNote) {
    console.log(postgresNote);
  }

  const ratioOf = (row) => (row ? Number((row.requestsPerSecond / hello.requestsPerSecond).toFixed(4)) : null);
  const strip = (row) => (row ? { ...row, wrongAnswerSamples: undefined } : null);
  console.log(
    JSON.stringify({
      bench: "likes",
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      warmupSeconds: WARMUP_S,
      machine,
      helloWorld: strip(hello),
      pglite: { ...strip(pglite), ratioToHelloWorld: ratioOf(pglite) },
      postgres: postgres ? { ...strip(postgres), ratioToHelloWorld: ratioOf(postgres) } : null,
      postgresSkipped: postgresNote,
      goalRatio: GOAL_RATIO,
      correct: failures.length === 0,
    }),
  );
  if (failures.length > 0) {
    console.error(`\nCorrectness failures:\n  ${failures.join("\n  ")}`);
    process.exitCode = 1;
  }
}

await support.runBench("likes", main);
