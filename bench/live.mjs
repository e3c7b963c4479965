// Issue 35 item 5 (`npm run bench:live`): live sessions under a hall's worth of followers.
//
// Starts Podium's build, signs a presenter up, imports a 6-step deck and goes live; opens N
// followers (default 10,000) as raw HTTP clients reading the session's server-sent events (not
// browsers); then changes the step once a second for the duration (default 60 s) and reports:
//
// - delivery latency, p50/p99/max, from just before the presenter's change is sent to each
//   follower's receipt of it (the followers run in this process, on the same clock);
// - steps lost: changes some follower never received, and followers dropped or closed;
// - memory per follower: the server's RSS and V8 heap after the followers connected, minus before,
//   divided by N (the heap read by a probe the server loads, after two full garbage collections);
// - CPU per step change: the server's CPU time (from /proc) during the steps, per change.
//
// `--nats` (with NATS_URL's server at --nats-url, default nats://127.0.0.1:4222): two server
// processes on one PostgreSQL database (a temporary one from --database's server), the presenter
// on the first and the followers spread over both, so every change crosses core NATS.
//
//   npm run bench:live -- --followers 10000 --duration 60 [--nats] [--database postgres://…]
//
// 10,000 followers need 10,000 file descriptors in this process and in the server: `ulimit -n`
// must be above that in the shell that runs it (20,000 here; `ulimit -n 65536` raises it where
// the hard limit allows). The machine is shared with whatever else runs: figures are timings.
import { readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import * as support from "./support.mjs";

const FOLLOWERS = support.option("followers", 10_000);
const DURATION_S = support.option("duration", 60);
const NATS = process.argv.includes("--nats");
const NATS_URL = support.argument("nats-url") ?? "nats://127.0.0.1:4222";
const DATABASE_ADMIN_URL = support.argument("database") ?? `postgres://root@${support.HOST}:5432/test`;
/** Followers connecting at once (the server's accept queue and this process's event loop). */
const CONNECT_BATCH = 500;
/** After the last change, how long followers get to receive it before what's missing counts as lost. */
const SETTLE_MS = 3000;
/** Issue 35 "Done when" goals. */
const GOAL_P99_MS = 250;
const GOAL_BYTES_PER_FOLLOWER = 20 * 1024;

const DECK = ["# Live bench", "## Two", "## Three", "## Four", "## Five", "## Six"].join("\n---\n");
/** What the followers look for in what they read (the step event's JSON starts so: hub.ts sseFrame). */
const STEP_MARK = Buffer.from('"type":"step","seq":');
const STATE_MARK = Buffer.from("event: state");
const FRAME_END = Buffer.from("\n\n");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The server's V8 heap after two full collections, through the probe (bench/live-probe.cjs) and SIGUSR2. */
async function heapBytes(pid, probeFile) {
  const file = `${probeFile}.${pid}`;
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 200; i++) {
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      await sleep(25);
    }
  }
  throw new Error(`the server (${pid}) wrote no heap figures`);
}

/** Signs the presenter up, imports the deck and goes live: the code and what the presenter sends with each change. */
async function goLive(port) {
  const presenter = await support.signUpThroughForm(port, { emailPrefix: "live-presenter" });
  const form = support.multipart(
    { _csrf: presenter.xsrf, privacy: "private", schemaVersion: "2", title: "Live bench" },
    { name: "live-bench.md", content: DECK },
  );
  const imported = await support.request(port, {
    method: "POST",
    path: "/dashboard/next/import",
    headers: { "content-type": form.contentType, cookie: presenter.cookie },
    body: form.body,
  });
  const oid = /presentations\/([a-z0-9]{12})\//.exec(String(imported.headers.location ?? ""))?.[1];
  if (imported.status !== 303 || !oid) throw new Error(`the import answered ${imported.status}`);
  const headers = {
    "content-type": "application/json",
    cookie: presenter.cookie,
    "x-xsrf-token": presenter.xsrf,
    accept: "application/json",
  };
  const live = await support.request(port, {
    method: "POST",
    path: `/p/presenter/${oid}/live`,
    headers,
    body: JSON.stringify({ step: 0 }),
  });
  if (live.status !== 200) throw new Error(`Go live answered ${live.status}: ${live.body}`);
  const { code } = JSON.parse(live.body.toString());
  return { code, headers, stepCount: 6 };
}

/**
 * One follower: a socket and what it received (the latest seq, and the time each step event came).
 * No closure beyond the socket's handlers; what it received goes into `received` by change number.
 */
function openFollower(port, code, index, tracker) {
  return new Promise((resolve) => {
    const socket = connect({ port, host: support.HOST });
    // Bytes after the last complete frame (a frame split between two reads); usually none.
    let tail = null;
    let ready = false;
    socket.on("connect", () => {
      socket.write(
        `GET /live/${code}/events HTTP/1.1\r\nHost: ${support.HOST}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    // Buffers, not strings: this process reads for 10,000 followers, and its time per read delays
    // the receipt times of the reads queued behind it.
    socket.on("data", (chunk) => {
      const now = performance.now();
      const bytes = tail ? Buffer.concat([tail, chunk]) : chunk;
      if (!ready && bytes.includes(STATE_MARK)) {
        ready = true;
        resolve(true);
      }
      for (let at = bytes.indexOf(STEP_MARK); at >= 0; at = bytes.indexOf(STEP_MARK, at + 1)) {
        let seq = 0;
        for (let i = at + STEP_MARK.length; bytes[i] >= 48 && bytes[i] <= 57; i++) seq = seq * 10 + bytes[i] - 48;
        tracker.receive(index, seq, now);
      }
      const end = bytes.lastIndexOf(FRAME_END);
      const rest = end < 0 ? bytes : bytes.subarray(end + 2);
      tail = rest.length > 0 && rest.length < 512 ? Buffer.from(rest) : null;
    });
    socket.on("close", () => {
      tracker.closed++;
      if (!ready) resolve(false);
    });
    socket.on("error", () => {});
  });
}

/** What the followers received: per change (by seq), the receipt times. */
function createTracker(followers) {
  const changes = new Map();
  return {
    closed: 0,
    expect(seq, sentAt) {
      changes.set(seq, { sentAt, latencies: new Float64Array(followers).fill(-1) });
    },
    receive(index, seq, now) {
      const change = changes.get(seq);
      if (change && change.latencies[index] < 0) change.latencies[index] = now - change.sentAt;
    },
    changes,
  };
}

async function runMode(mode) {
  const probeFile = join(support.temporaryDirectory("podium-live-bench-"), "heap");
  const env = {
    // Every follower comes from one address here: the per-address request limit is lifted (startPodium).
    NODE_OPTIONS: `--require ${join(support.ROOT, "bench/live-probe.cjs")}`,
    LIVE_PROBE_FILE: probeFile,
    PODIUM_SEED: "off",
  };
  const servers = [];
  if (mode === "nats") {
    const { url } = await support.temporaryDatabase(DATABASE_ADMIN_URL);
    for (let i = 0; i < 2; i++) {
      const port = await support.freePort();
      servers.push({
        port,
        process: await support.startPodium(port, { url }, { ...env, NATS_URL, PODIUM_WORKERS: "1" }),
      });
    }
  } else {
    const port = await support.freePort();
    servers.push({ port, process: await support.startPodium(port, { dataDir: "memory://" }, env) });
  }
  const [first] = servers;
  const live = await goLive(first.port);
  // The heap first: its two full collections return garbage, then RSS is read (less noise in the delta).
  const measure = () =>
    Promise.all(
      servers.map(async (server) => {
        const heap = await heapBytes(server.process.pid, probeFile);
        return { heap, rss: rssBytes(server.process.pid) };
      }),
    );
  const before = await measure();

  const tracker = createTracker(FOLLOWERS);
  const connectStarted = performance.now();
  let connected = 0;
  for (let start = 0; start < FOLLOWERS; start += CONNECT_BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(FOLLOWERS, start + CONNECT_BATCH); i++) {
      const server = servers[i % servers.length];
      batch.push(openFollower(server.port, live.code, i, tracker));
    }
    connected += (await Promise.all(batch)).filter(Boolean).length;
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  await sleep(1000);
  const after = await measure();

  const cpu = support.cpuMeter(
    Object.fromEntries([
      ...servers.map((server, i) => [`server${i}`, () => support.cpuSecondsOf(server.process.pid)]),
      ["followers", support.ownCpuSeconds],
    ]),
  );
  const steps = Math.max(1, Math.round(DURATION_S));
  let refused = 0;
  const startedAt = performance.now();
  for (let i = 1; i <= steps; i++) {
    const due = startedAt + i * 1000;
    await sleep(Math.max(0, due - performance.now()));
    // The change's seq is the session's: 1 at Go live, one more per change (nothing else changes it here).
    const sentAt = performance.now();
    tracker.expect(i + 1, sentAt);
    const response = await support.request(first.port, {
      method: "POST",
      path: `/live/${live.code}/step`,
      headers: live.headers,
      body: JSON.stringify({ step: i % live.stepCount }),
    });
    if (response.status !== 200) {
      refused++;
      tracker.changes.delete(i + 1);
    }
  }
  await sleep(SETTLE_MS);
  const cpuPerChange = cpu(steps);

  const all = [];
  let lostDeliveries = 0;
  let changesNotEverywhere = 0;
  for (const change of tracker.changes.values()) {
    let missing = 0;
    for (const latency of change.latencies) {
      if (latency < 0) missing++;
      else all.push(latency);
    }
    lostDeliveries += missing;
    if (missing > 0) changesNotEverywhere++;
  }
  all.sort((a, b) => a - b);
  const memory = servers.map((_server, i) => {
    const followersHere = Math.ceil((FOLLOWERS - i) / servers.length);
    return {
      rssPerFollower: (after[i].rss - before[i].rss) / followersHere,
      heapPerFollower: (after[i].heap.heapUsed - before[i].heap.heapUsed) / followersHere,
      externalPerFollower:
        (after[i].heap.external + after[i].heap.arrayBuffers - before[i].heap.external - before[i].heap.arrayBuffers) /
        followersHere,
    };
  });
  return {
    mode,
    followers: FOLLOWERS,
    connected,
    connectSeconds,
    changes: steps,
    refused,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    max: all.at(-1) ?? null,
    lostDeliveries,
    changesNotEverywhere,
    closed: tracker.closed,
    memory,
    cpuPerChange,
  };
}

function report(result) {
  console.log(`\n${result.mode === "nats" ? "two processes over NATS" : "one process"}: ${result.followers} followers`);
  console.log(
    `  connected ${result.connected} in ${result.connectSeconds.toFixed(1)} s; ${result.closed} closed during the run`,
  );
  console.log(
    `  ${result.changes} step changes (${result.refused} refused): delivery p50 ${support.ms(result.p50)} ms, p99 ${support.ms(result.p99)} ms, max ${support.ms(result.max)} ms`,
  );
  console.log(
    `  lost: ${result.lostDeliveries} deliveries missing, ${result.changesNotEverywhere} changes not received by every follower`,
  );
  result.memory.forEach((memory, i) => {
    console.log(
      `  server ${i + 1}: per follower RSS ${(memory.rssPerFollower / 1024).toFixed(1)} KB, heap ${(memory.heapPerFollower / 1024).toFixed(1)} KB, buffers ${(memory.externalPerFollower / 1024).toFixed(1)} KB; CPU per change ${support.ms(result.cpuPerChange[`server${i}`] ?? null)} ms`,
    );
  });
  console.log(
    `  the followers' process (this one): CPU per change ${support.ms(result.cpuPerChange.followers ?? null)} ms`,
  );
  const worstRss = Math.max(...result.memory.map((memory) => memory.rssPerFollower));
  const pass =
    result.p99 !== null &&
    result.p99 <= GOAL_P99_MS &&
    result.lostDeliveries === 0 &&
    result.connected === result.followers;
  console.log(
    `  issue 35 goal (p99 ≤ ${GOAL_P99_MS} ms, 0 lost, every follower held; memory ≤ ${GOAL_BYTES_PER_FOLLOWER / 1024} KB a follower): ${pass ? "PASS" : "MISS"}${worstRss <= GOAL_BYTES_PER_FOLLOWER ? "" : " (memory over the goal)"}`,
  );
}

await support.runBench("live", async () => {
  process.chdir(support.ROOT);
  support.ensureBuild();
  console.log(
    `bench:live: ${FOLLOWERS} followers, a step change a second for ${DURATION_S} s${NATS ? ", two processes over NATS" : ", one process"}`,
  );
  const result = await runMode(NATS ? "nats" : "single");
  report(result);
  const json = support.argument("json");
  if (json) (await import("node:fs")).writeFileSync(json, JSON.stringify(result, null, 2));
});
