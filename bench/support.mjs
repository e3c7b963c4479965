// What the benchmarks that run servers share (issue 11): the servers as child processes (started,
// waited for, stopped; all of them stopped however the run ends), temporary data directories and
// databases dropped at the end, CPU time read from /proc, autocannon, a cookie jar, the build
// check, the table formatters and the run's tail (main, SIGINT/SIGTERM, clean-up).
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";

/** The checkout's root (the benchmarks chdir here: dist/, scripts/). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every server and every request of a benchmark stays on this machine. */
export const HOST = "127.0.0.1";

/** The benches' PostgreSQL (the test database on this machine); each bench makes a database of its own there. */
export const PG_ADMIN_URL = `postgres://root@${HOST}:5432/test`;

/** The value after `--name` on the command line, or undefined. */
export const argument = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

/** A positive number after `--name`, or the fallback. */
export const option = (name, fallback) => {
  const value = Number(argument(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

// --- processes ------------------------------------------------------------------------------

/** Every child process started here, so that all of them are stopped however the run ends. */
const children = new Set();
const cleanups = [];

/** Registers what to undo when the run ends (in reverse order, after the children have stopped). */
export function onCleanUp(cleanup) {
  cleanups.push(cleanup);
}

/** A TCP port free on HOST right now. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts a Node child process and waits (through `started`) until it prints `ready` on stdout. */
export function startChild(name, args, env, ready) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let out = "";
  let err = "";
  const exited = new Promise((done) => child.on("exit", (code, signal) => done({ code, signal })));
  exited.then(() => children.delete(child));
  const started = new Promise((done, reject) => {
    child.stdout.on("data", (chunk) => {
      if (out.length < 100_000) out += chunk;
      if (out.includes(ready)) done();
    });
    child.stderr.on("data", (chunk) => {
      if (err.length < 100_000) err += chunk;
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${out}${err}`.trim())),
    );
  });
  return {
    started,
    pid: child.pid,
    /** SIGTERM, then SIGKILL if it hasn't exited after a while; resolves once it has exited. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
    stderr: () => err,
    stdout: () => out,
    /** Resolves with { code, signal } once the process has exited. */
    exited,
  };
}

/** Fastify's hello-world, the usual reference, as a module's source for startInline. */
export const HELLO_WORLD = `
import Fastify from "fastify";
const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.env.PORT), host: ${JSON.stringify(HOST)} });
console.log("hello-world: serving");
`;

/** Runs a module's source (which prints `<name>: serving` once it listens on PORT) and waits for it. */
export async function startInline(name, source, port, env = {}) {
  const server = startChild(
    name,
    ["--input-type=module", "-e", source],
    { ...process.env, ...env, PORT: String(port) },
    `${name}: serving`,
  );
  await server.started;
  return server;
}

/** Serves a module's source (as startInline) on a free port for `measure(origin, server)`, and stops it after. */
export async function measureInline(name, source, measure) {
  const port = await freePort();
  const server = await startInline(name, source, port);
  try {
    return await measure(`http://${HOST}:${port}`, server);
  } finally {
    await server.stop();
  }
}

/** Every per-person rate limit lifted, for benches that sign many people up and in (env for startPodium). */
export const LIFTED_RATE_LIMITS = Object.fromEntries(
  ["PODIUM_SIGNUP_RATE_LIMIT", "PODIUM_LOGIN_RATE_LIMIT", "PODIUM_LOGIN_ACCOUNT_LIMIT", "PODIUM_LIKE_RATE_LIMIT"].map(
    (name) => [name, "100000000"],
  ),
);

/**
 * Starts the build (dist/server/main.js) on `port` with request logging off and the rate limit
 * lifted, on `database` ({ url } for PostgreSQL, { dataDir } for PGlite), and waits until it
 * serves. `env` adds to or overrides the environment; a key set to undefined is removed.
 */
export async function startPodium(port, database, env = {}) {
  const all = {
    ...process.env,
    PORT: String(port),
    HOST,
    PODIUM_LOG: "off",
    PODIUM_RATE_LIMIT: "100000000",
    PODIUM_PUBLIC_URL: `http://${HOST}:${port}`,
    ...env,
  };
  for (const [key, value] of Object.entries(all)) if (value === undefined) delete all[key];
  delete all.DATABASE_URL;
  delete all.PODIUM_DATA_DIR;
  if (database.url) all.DATABASE_URL = database.url;
  else all.PODIUM_DATA_DIR = database.dataDir;
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server during the run.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const server = startChild("podium", [...nodeArgs, "dist/server/main.js"], all, "podium: serving");
  await server.started;
  return server;
}

/**
 * An owner's Podium for the analytics benches: the build on `port` (startPodium) on a fresh
 * PostgreSQL database with no demo content, one process and sign-ups unthrottled, and a person
 * signed up through the form. Returns the database (its url, for the bench's own queries) and the
 * owner's cookie jar.
 */
export async function startOwnersPodium(port, emailPrefix) {
  const database = await temporaryDatabase(PG_ADMIN_URL);
  await startPodium(port, database, { PODIUM_SEED: "off", PODIUM_WORKERS: "1", PODIUM_SIGNUP_RATE_LIMIT: "100000000" });
  const { jar } = await signUpThroughForm(port, { lastName: "Owner", emailPrefix });
  return { database, owner: jar };
}

// --- databases ---------------------------------------------------------------------------------

/** A temporary directory (`prefix` + random), removed when the run ends. */
export function temporaryDirectory(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanUp(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** One statement on PostgreSQL, on a connection of its own. */
export async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh database on the PostgreSQL server of `adminUrl`, dropped when the run ends: { name, url }. */
export async function temporaryDatabase(adminUrl) {
  const name = `podium_bench_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name}`);
  onCleanUp(() => adminQuery(adminUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

// --- CPU accounting (Linux /proc) -------------------------------------------------------------

const CLOCK_TICKS_PER_S = 100;

/** The fields of /proc/<pid>/stat after the command's name (state first); throws without it. */
const statFields = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return { stat, fields: stat.slice(stat.lastIndexOf(")") + 2).split(" ") };
};

/** Calls `visit(pid, stat, fields)` for every process of the machine that can still be read. */
function eachProcess(visit) {
  for (const entry of existsSync("/proc") ? readdirSync("/proc") : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { stat, fields } = statFields(entry);
      visit(entry, stat, fields);
    } catch {
      // the process ended between the listing and the read
    }
  }
}

/** CPU seconds (user + system) used so far by one process, all of its threads; null without /proc. */
export function cpuSecondsOf(pid) {
  try {
    const { fields } = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return null;
  }
}

/** CPU seconds of a process and its child processes (a cluster's workers); null without /proc. */
export function treeCpuSeconds(pid) {
  const own = cpuSecondsOf(pid);
  if (own === null) return null;
  let total = own;
  eachProcess((entry, _stat, fields) => {
    if (Number(fields[1]) === pid) total += cpuSecondsOf(entry) ?? 0;
  });
  return total;
}

/** CPU seconds of every PostgreSQL server process on the machine (the backends serve the run); null if none. */
export function postgresCpuSeconds() {
  let total = 0;
  let found = false;
  eachProcess((entry, stat) => {
    if (!stat.includes("(postgres)")) return;
    found = true;
    total += cpuSecondsOf(entry) ?? 0;
  });
  return found ? total : null;
}

/** CPU seconds used so far by this process (the load generator). */
export const ownCpuSeconds = () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6;

/**
 * Reads `sources` ({ key: () => CPU seconds or null }) now; the function returned reads them
 * again and gives each key's CPU milliseconds per request over `requests` (null when unknown).
 */
export function cpuMeter(sources) {
  const take = () => Object.fromEntries(Object.entries(sources).map(([key, read]) => [key, read()]));
  const before = take();
  return (requests) => {
    const after = take();
    const perRequest = (key) =>
      before[key] === null || after[key] === null || requests === 0
        ? null
        : Number((((after[key] - before[key]) * 1000) / requests).toFixed(3));
    return Object.fromEntries(Object.keys(sources).map((key) => [key, perRequest(key)]));
  };
}

// --- HTTP -------------------------------------------------------------------------------------

/**
 * One request to HOST:port, on a connection of its own; the body as sent (a Buffer, compressed
 * when it was). `timeoutMs`: fail when no answer comes for that long (none by default).
 */
export function request(port, { method = "GET", path, headers = {}, body, timeoutMs }) {
  return new Promise((done, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = http.request(
      {
        host: HOST,
        port,
        method,
        path,
        agent: false,
        headers: payload ? { ...headers, "content-length": payload.length } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** What a desktop Chrome sends when it asks for a page. */
export const BROWSER_HEADERS = {
  accept:
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-US,en;q=0.9",
  "user-agent":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
  "sec-fetch-site": "none",
  "sec-fetch-user": "?1",
  "upgrade-insecure-requests": "1",
};

/** A multipart body as a browser sends it: text fields and one file called `file`. */
export function multipart(fields, file) {
  const boundary = `----podiumbench${randomBytes(8).toString("hex")}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${file.content}\r\n`,
    `--${boundary}--\r\n`,
  );
  return { body: parts.join(""), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Imports a Markdown deck through the dashboard's form as `jar`'s person (public, schema 2);
 * returns its oid.
 */
export async function importMarkdown(port, jar, title, markdown) {
  const { body, contentType } = multipart(
    { _csrf: jar.get("XSRF-TOKEN") ?? "", privacy: "public", schemaVersion: "2", title },
    { name: "bench.md", content: markdown },
  );
  const response = await request(port, {
    method: "POST",
    path: "/dashboard/next/import",
    headers: { "content-type": contentType, cookie: jar.header() },
    body,
  });
  const oid = /\/presentations\/([^/]+)\//.exec(String(response.headers.location ?? ""))?.[1];
  if (response.status !== 303 || !oid) throw new Error(`POST /dashboard/next/import answered ${response.status}`);
  return oid;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
/** An open loop's latencies (ms) in figures: p50, p99 and the largest (NaN when there are none). */
export const latencyFigures = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5) ?? Number.NaN,
    p99: quantile(sorted, 0.99) ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
};
/** The median and 95th percentile of some timings (ms). */
export const timingSummary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
};

/**
 * Requests some pages in turn, `rounds` times each (after 5 unmeasured rounds), so the machine's
 * load changes weigh on all alike: ms per answer of each. `check(which, body)` sees each page once.
 */
export async function timePages(port, jar, paths, check, rounds) {
  const times = paths.map(() => []);
  for (let i = 0; i < rounds + 5; i++) {
    for (const [which, path] of paths.entries()) {
      const start = performance.now();
      const response = await request(port, { path, headers: { cookie: jar.header() } });
      const elapsed = performance.now() - start;
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      if (i === 0) check(which, response.body.toString());
      if (i >= 5) times[which].push(elapsed);
    }
  }
  return times.map(timingSummary);
}

/**
 * Signs a new person up through the real form, as a browser would (the form's XSRF-TOKEN cookie
 * as `_csrf`). Returns their `cookie` header, `xsrf` token and cookie `jar`. `lastName` and
 * `email` (a random one by default) tell the benches' people apart.
 */
export async function signUpThroughForm(port, { lastName = "Bench", email, emailPrefix = "bench", timeoutMs } = {}) {
  const jar = new CookieJar();
  const form = await request(port, { path: "/signup/", timeoutMs });
  if (form.status !== 200) throw new Error(`GET /signup/ answered ${form.status}`);
  jar.store(form);
  const body = new URLSearchParams({
    firstName: "Bench",
    lastName,
    publicDisplayName: "",
    email: email ?? `${emailPrefix}-${randomBytes(4).toString("hex")}@bench.test`,
    password: "correct horse battery staple",
    _csrf: jar.get("XSRF-TOKEN") ?? "",
  }).toString();
  const headers = { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() };
  const response = await request(port, { method: "POST", path: "/signup/", headers, body, timeoutMs });
  jar.store(response);
  const [session, xsrf] = [jar.get("podium_session"), jar.get("XSRF-TOKEN")];
  if (response.status !== 303 || !session || !xsrf) {
    throw new Error(
      `POST /signup/ (${lastName}) answered ${response.status} without a session and an XSRF-TOKEN cookie`,
    );
  }
  return { cookie: `podium_session=${session}; XSRF-TOKEN=${xsrf}`, xsrf, jar };
}

/** A PDF upload to the import API (POST /api/imports/pdf) as the dashboard's script sends it: body and headers. */
export function pdfUpload(person, pdf, fileName) {
  const boundary = `----podiumbench${randomBytes(8).toString("hex")}`;
  const part = (field, extra = "") => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${extra}\r\n`;
  const body = Buffer.concat([
    Buffer.from(`${part("privacy")}\r\nprivate\r\n${part("schemaVersion")}\r\n2\r\n`),
    Buffer.from(`${part("file", `; filename="${fileName}"`)}Content-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = {
    "content-type": `multipart/form-data; boundary=${boundary}`,
    cookie: person.cookie,
    "x-xsrf-token": person.xsrf,
    accept: "application/json",
  };
  return { body, headers };
}

/** Cookies as a browser keeps them: stored from Set-Cookie, sent back as one Cookie header. */
export class CookieJar {
  cookies = new Map();
  store(response) {
    for (const line of response.headers["set-cookie"] ?? []) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /;\s*max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  get(name) {
    return this.cookies.get(name);
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** autocannon's programmatic API as a promise of its result. */
export function cannon(options) {
  return new Promise((done, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : done(result)));
  });
}

/**
 * Issue 32: a steady load, open loop. One request every 1000 / rate ms, each sent at its time
 * whatever the answers before it are doing (over a keep-alive pool that opens a new connection
 * when all are busy), and each latency measured from the time it was due to go, until its answer
 * has been read whole (so a server that falls behind shows as the wait it causes, never hidden).
 *
 * Why not autocannon's overallRate: it gives each connection a quota per second and lets it send
 * the quota back-to-back as the second starts (100/s on 20 connections: 20 requests at once, 5 in
 * a row each, then nothing), and it records each answer with HdrHistogram's coordinated-omission
 * correction at an expected interval of ceil(1 / per-connection rate) = 1 ms, so a 100 ms answer
 * counts as 100 samples. Its p99 is neither steady nor a percentile of requests.
 * `method` and `body` for a POST (usage events); `codes` counts the answers by status.
 */
export function steadyLoad(
  port,
  paths,
  { rate, durationS, headers = BROWSER_HEADERS, warmupS = 0, method = "GET", body = undefined },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const intervalMs = 1000 / rate;
  const warmupCount = Math.round(warmupS * rate);
  const total = warmupCount + Math.round(durationS * rate);
  const latencies = [];
  const codes = {};
  let errors = 0;
  let settled = 0;
  return new Promise((done) => {
    const startedAt = performance.now() + 20;
    const finish = () => {
      settled += 1;
      if (settled < total) return;
      agent.destroy();
      done({ sent: total - warmupCount, codes, errors, ...latencyFigures(latencies) });
    };
    const send = (n) => {
      const dueAt = startedAt + n * intervalMs;
      const request = http.request(
        { host: HOST, port, method, path: paths[n % paths.length], headers, agent },
        (response) => {
          response.on("data", () => {});
          response.on("end", () => {
            if (n >= warmupCount) {
              latencies.push(performance.now() - dueAt);
              codes[response.statusCode] = (codes[response.statusCode] ?? 0) + 1;
            }
            finish();
          });
        },
      );
      request.on("error", () => {
        if (n >= warmupCount) errors += 1;
        finish();
      });
      request.end(body);
    };
    let next = 0;
    const tick = () => {
      // Everything due by now goes now (a late timer sends the ones it owes at once).
      while (next < total && startedAt + next * intervalMs <= performance.now()) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, startedAt + next * intervalMs - performance.now()));
    };
    setTimeout(tick, Math.max(0, startedAt - performance.now()));
  });
}

/** autocannon's answers by status code: { "200": count, … }. */
export const statusCodesOf = (result) =>
  Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));

// --- build and report ---------------------------------------------------------------------------

/** Builds when the build is missing (or with --build); a stale build is only reported. */
export function ensureBuild() {
  if (process.argv.includes("--build") || !existsSync("dist/server/main.js")) {
    console.log("podium: building…");
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
    return;
  }
  // The same check as `npm start` (scripts/start.mjs), but without rebuilding under someone's feet.
  const stamp = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'import { sourceStamp } from "./scripts/source-stamp.mjs"; process.stdout.write(sourceStamp());',
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  const built = existsSync("dist/.source-stamp") ? readFileSync("dist/.source-stamp", "utf8") : null;
  if (stamp !== built) {
    console.warn("podium: the build is older than the sources; these figures are for the build (rerun with --build).");
  }
}

/** A table cell: padded to `width`, on the left for the first column. */
const pad = (value, width, left = false) => (left ? String(value).padEnd(width) : String(value).padStart(width));

/** Prints a table's header and the rule under it; returns the function that formats one row of cells. */
export function tableHeader(header, widths) {
  const line = (cells) => cells.map((cell, i) => pad(cell, widths[i], i === 0)).join("  ");
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  return line;
}

/**
 * Prints a table of the targets run: the header, then a row a target, the cells `cellsOf` makes of
 * its result, or "skipped" where it has none.
 */
export function printTargets(rows, header, widths, cellsOf) {
  const line = tableHeader(header, widths);
  for (const [name, row] of rows) {
    console.log(line(row ? cellsOf(name, row) : [name, "skipped", ...widths.slice(2).map(() => "")]));
  }
}

/** Milliseconds with one decimal, or – when unknown. */
export const ms = (value) => (typeof value === "number" ? value.toFixed(1) : "–");

// --- the run ----------------------------------------------------------------------------------

/** Stops every child still running (SIGTERM, SIGKILL after 5 s), then runs the clean-ups. */
async function cleanUp() {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", done);
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
        }),
    ),
  );
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${error.message}`);
    }
  }
}

/**
 * Runs a benchmark's `main`: on SIGINT/SIGTERM stops the servers, cleans up and exits 130; an
 * error is printed as `bench/<name>: …` with exit code 1; the clean-up runs however it ends.
 */
export async function runBench(name, main) {
  let interrupted = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: stopping the servers and cleaning up…`);
      cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    await main();
  } catch (error) {
    console.error(`bench/${name}: ${error.stack ?? error.message}`);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
