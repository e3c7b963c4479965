// Benchmark of memory that comes back (issue 27, item 5). Starts the built server (PGlite in
// memory, demo seed, request log off, rate limits lifted), reads its resident memory as the OS
// reports it (VmRSS in /proc/PID/status; the PGlite thread is in the same process) and reports:
//
//   1. idle: after one request of every kind below (so code that loads on first use is loaded),
//      then a quiet spell;
//   2. six large image uploads at once (a 50-megapixel interlaced RGBA PNG, the worst image the
//      pixel limit lets through: libvips must hold an interlaced PNG whole), alone: their peak;
//   3. a mixed load: view pages of every demo deck, searches with many different words, signed-in
//      pages, and rounds of six uploads at once, all together for --duration seconds: the peak;
//   4. after it, idle again: RSS sampled every second for --settle seconds; the last figure is
//      compared with idle (the goal: within 20 %).
//
// With `--baseline DIR` the same run first measures another checkout's build (DIR/dist, e.g.
// main's, built with `node scripts/build.mjs` there), so "before" and "after" come from one run
// on one machine. This build is then measured again with MALLOC_MMAP_THRESHOLD_=131072 (what
// main.ts sets where Node can re-exec itself; --no-malloc skips it). `--env NAME=VALUE`
// (repeatable) adds to the server's environment in every run.
// Figures are reported, never enforced; the run exits non-zero only when the server fails or a
// request gets an answer it shouldn't (a 5xx, an upload refused).
//
// Usage: npm run bench:memory [-- --duration 60 --settle 60 --port 3420 --baseline /tmp/main --build]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import * as support from "./support.mjs";

process.chdir(support.ROOT);

const DURATION_S = support.option("duration", 60);
const SETTLE_S = support.option("settle", 60);
const PORT = support.option("port", 3420);
const BASELINE = support.argument("baseline");
const UPLOADS_AT_ONCE = support.option("uploads", 6);
/** Distinct search words: each search page is a page-cache entry of its own, as a day of visitors' searches. */
const SEARCH_WORDS = support.option("words", 3000);
const LIFTED = "100000000";
const DEMO_EMAIL = "ada@podium.test";
const DEMO_PASSWORD = "podium-demo";
const BROWSER = { accept: "text/html", "accept-encoding": "gzip, deflate, br", "accept-language": "en-US,en;q=0.9" };
/** The side of the square test image: 7071² = 49,999,041 pixels, just under the 50-megapixel limit. */
const BIG_SIDE = 7071;

const extraEnv = {};
for (let i = 0; i < process.argv.length; i += 1) {
  if (process.argv[i] !== "--env") continue;
  const [key, ...value] = (process.argv[i + 1] ?? "").split("=");
  if (key) extraEnv[key] = value.join("=");
}

// --- the server and its memory -------------------------------------------------------------

/** VmRSS and VmHWM of a process in MB, as the kernel counts them. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** Samples a process's RSS every `everyMs` until stopped; gives the peak seen. */
function sampler(pid, everyMs = 100) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss);
    } catch {
      // the process is gone; the caller finds out
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, memoryOf(pid).rss);
    },
  };
}

/** Starts `root`'s build on PORT and waits until it serves. */
async function startServer(root, runEnv) {
  const env = { ...process.env, PORT: String(PORT), HOST: support.HOST, PODIUM_LOG: "off", PODIUM_SEED: "on" };
  Object.assign(env, { PODIUM_DATA_DIR: "memory://", PODIUM_PUBLIC_URL: `http://${support.HOST}:${PORT}` });
  for (const name of [
    "RATE_LIMIT",
    "SIGNUP_RATE_LIMIT",
    "LOGIN_RATE_LIMIT",
    "LOGIN_ACCOUNT_LIMIT",
    "LIKE_RATE_LIMIT",
  ]) {
    env[`PODIUM_${name}`] = LIFTED;
  }
  Object.assign(env, extraEnv, runEnv);
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["dist/server/main.js"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk) => {
    if (output.length < 100_000) output += chunk;
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((done) => child.on("exit", done));
  support.onCleanUp(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  await new Promise((ready, reject) => {
    child.stdout.on("data", () => output.includes("podium: serving") && ready());
    exited.then((code) => reject(new Error(`the server exited (${code}) before it served:\n${output}`)));
  });
  return {
    pid: child.pid,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// --- requests --------------------------------------------------------------------------------

async function viewPaths() {
  const sitemap = await support.request(PORT, { path: "/sitemap.xml" });
  if (sitemap.status !== 200) throw new Error(`GET /sitemap.xml answered ${sitemap.status}`);
  const paths = [...sitemap.body.toString().matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((match) => new URL(match[1]).pathname)
    .filter((path) => path.startsWith("/p/"));
  if (paths.length === 0) throw new Error("the sitemap lists no view pages: is the demo seed on?");
  return [...new Set(paths)];
}

/** Logs the demo person in through the real form; gives the cookie header and the CSRF token. */
async function logIn() {
  const jar = new support.CookieJar();
  jar.cookies.set("podium_cookie_consent", "necessary");
  const form = await support.request(PORT, { path: "/login/", headers: { ...BROWSER, cookie: jar.header() } });
  jar.store(form);
  const csrf = jar.get("XSRF-TOKEN");
  if (!csrf) throw new Error(`GET /login/ answered ${form.status} without an XSRF-TOKEN cookie`);
  const response = await support.request(PORT, {
    method: "POST",
    path: "/login/",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: `http://${support.HOST}:${PORT}`,
      cookie: jar.header(),
    },
    body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD, _csrf: csrf }).toString(),
  });
  jar.store(response);
  if (response.status !== 303 || !jar.get("podium_session"))
    throw new Error(`POST /login/ answered ${response.status}`);
  return { cookie: jar.header(), csrf: jar.get("XSRF-TOKEN") };
}

/** The editor's upload (POST /api/assets, multipart, the CSRF token in its header); throws unless 201. */
async function uploadImage(session, bytes) {
  const boundary = "----podium-bench-memory";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const response = await support.request(PORT, {
    method: "POST",
    path: "/api/assets",
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      cookie: session.cookie,
      "x-xsrf-token": session.csrf,
    },
    body,
  });
  if (response.status !== 201) {
    throw new Error(`an upload answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
  }
}

/** Six (--uploads) at once; resolves when all are stored. */
const uploadRound = (session, bytes) =>
  Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, () => uploadImage(session, bytes)));

/** Words nobody searched before: each search is a page of its own (and a statement with new parameters). */
function searchWords(count) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let seed = 2_654_435_761;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 4 + (next() % 6) }, () => letters[next() % letters.length]).join(""),
  );
}

/** autocannon over a list of paths for `seconds`; throws on 5xx or errors. */
async function load(paths, seconds, connections, headers = BROWSER) {
  const result = await support.cannon({
    url: `http://${support.HOST}:${PORT}`,
    connections,
    duration: seconds,
    headers,
    requests: paths.map((path) => ({ method: "GET", path })),
  });
  const codes = support.statusCodesOf(result);
  const bad = Object.keys(codes).filter((code) => code.startsWith("5"));
  if (bad.length > 0 || result.errors > 0) {
    throw new Error(`a load on ${paths[0]} had ${JSON.stringify({ codes, errors: result.errors })}`);
  }
  return result.requests.total;
}

// --- one build -----------------------------------------------------------------------------

/** Median RSS over `seconds` of one sample a second. */
async function quietRss(pid, seconds) {
  const samples = [];
  for (let i = 0; i < seconds; i += 1) {
    await new Promise((done) => setTimeout(done, 1000));
    samples.push(memoryOf(pid).rss);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

async function measureBuild(name, root, bigPng, runEnv = {}) {
  if (!existsSync(join(root, "dist/server/main.js"))) throw new Error(`${root} has no build (dist/server/main.js)`);
  console.log(`\n${name} (${root}), load ${loadavg()[0].toFixed(2)}`);
  const server = await startServer(root, runEnv);
  try {
    const started = memoryOf(server.pid).rss;
    const views = await viewPaths();
    const session = await logIn();
    const words = searchWords(SEARCH_WORDS);
    const signedIn = { ...BROWSER, cookie: session.cookie };
    // Warm-up: every kind of request once, a small image included.
    await load(views.slice(0, 5), 1, 1);
    await load(
      words.slice(0, 5).map((word) => `/explore/search/?search=${word}`),
      1,
      1,
    );
    await load([...views.slice(0, 3), "/dashboard/"], 1, 1, signedIn);
    await uploadImage(
      session,
      await sharp({ create: { width: 64, height: 64, channels: 3, background: "#123" } })
        .png()
        .toBuffer(),
    );
    const idle = await quietRss(server.pid, 10);
    console.log(`  started ${started} MB; idle after a warm-up ${idle} MB`);

    // Six uploads of the biggest allowed image at once, alone.
    const uploadsSampler = sampler(server.pid);
    const uploadsStart = performance.now();
    await uploadRound(session, bigPng);
    const uploadsPeak = uploadsSampler.stop();
    const uploadsS = (performance.now() - uploadsStart) / 1000;
    const afterUploads = await quietRss(server.pid, 5);
    console.log(
      `  ${UPLOADS_AT_ONCE} × 50 MP PNG at once: peak ${uploadsPeak} MB (+${uploadsPeak - idle}), all stored in ${uploadsS.toFixed(1)} s; then ${afterUploads} MB`,
    );

    // The mixed load.
    const mixedSampler = sampler(server.pid);
    let rounds = 0;
    let loading = true;
    const uploading = (async () => {
      while (loading || rounds === 0) {
        await uploadRound(session, bigPng);
        rounds += 1;
      }
    })();
    const [viewCount, searchCount, signedInCount] = await Promise.all([
      load(views, DURATION_S, 4),
      load(
        words.map((word) => `/explore/search/?search=${word}`),
        DURATION_S,
        4,
      ),
      load([...views, "/dashboard/", "/settings/"], DURATION_S, 2, signedIn),
    ]);
    loading = false;
    await uploading;
    const mixedPeak = mixedSampler.stop();
    const endOfLoad = memoryOf(server.pid).rss;
    console.log(
      `  mixed load ${DURATION_S} s: ${viewCount} view pages, ${searchCount} searches, ${signedInCount} signed-in pages, ${rounds * UPLOADS_AT_ONCE} uploads; peak ${mixedPeak} MB, at the end ${endOfLoad} MB`,
    );

    // Idle again.
    const settle = [];
    for (let s = 1; s <= SETTLE_S; s += 1) {
      await new Promise((done) => setTimeout(done, 1000));
      settle.push(memoryOf(server.pid).rss);
    }
    const at = (s) => settle[Math.min(settle.length, s) - 1];
    const final = at(SETTLE_S);
    const ratio = final / idle;
    console.log(
      `  idle again: ${at(5)} MB after 5 s, ${at(Math.min(30, SETTLE_S))} after ${Math.min(30, SETTLE_S)} s, ${final} after ${SETTLE_S} s: ${(100 * (ratio - 1)).toFixed(0)} % over idle (${ratio <= 1.2 ? "PASS" : "MISS"}: within 20 %)`,
    );
    return { name, started, idle, uploadsPeak, afterUploads, mixedPeak, endOfLoad, final, ratio };
  } catch (error) {
    throw new Error(`${error.message}\nserver output:\n${server.output().slice(-2000)}`);
  } finally {
    await server.stop();
  }
}

/** A 50 MP interlaced RGBA PNG of a smooth gradient: small on disk (a few hundred KB), 200 MB decoded. */
async function bigInterlacedPng() {
  const row = Buffer.alloc(BIG_SIDE * 4);
  const rows = [];
  for (let y = 0; y < BIG_SIDE; y += 1) {
    for (let x = 0; x < BIG_SIDE; x += 1) {
      row[x * 4] = x >> 5;
      row[x * 4 + 1] = y >> 5;
      row[x * 4 + 2] = (x + y) >> 6;
      row[x * 4 + 3] = 200;
    }
    rows.push(Buffer.from(row));
  }
  return sharp(Buffer.concat(rows), { raw: { width: BIG_SIDE, height: BIG_SIDE, channels: 4 } })
    .png({ progressive: true, compressionLevel: 9 })
    .toBuffer();
}

await support.runBench("memory", async () => {
  support.ensureBuild();
  const bigPng = await bigInterlacedPng();
  console.log(
    `bench:memory — ${DURATION_S} s of mixed load, ${SETTLE_S} s to settle, port ${PORT}, test image ${(bigPng.length / 1024).toFixed(0)} KB (${BIG_SIDE}×${BIG_SIDE} interlaced RGBA PNG)${Object.keys(extraEnv).length ? `, env ${JSON.stringify(extraEnv)}` : ""}`,
  );
  const results = [];
  if (BASELINE) results.push(await measureBuild("baseline", BASELINE, bigPng));
  results.push(await measureBuild("this build", support.ROOT, bigPng));
  // What serve.ts asks glibc for where Node can re-exec itself (process.execve, Node ≥ 22.15), given by hand here.
  if (!process.argv.includes("--no-malloc")) {
    results.push(await measureBuild("+ malloc", support.ROOT, bigPng, { MALLOC_MMAP_THRESHOLD_: "131072" }));
  }
  console.log("");
  const line = support.tableHeader(
    ["build", "idle MB", "6 uploads peak", "mixed peak", "end of load", `after ${SETTLE_S} s`, "vs idle"],
    [12, 8, 15, 11, 12, 11, 8],
  );
  for (const r of results) {
    console.log(
      line([r.name, r.idle, r.uploadsPeak, r.mixedPeak, r.endOfLoad, r.final, `${(100 * (r.ratio - 1)).toFixed(0)} %`]),
    );
  }
  console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
});
