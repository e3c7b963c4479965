// Benchmark of search at size (issue 15 item 6). In one run on one machine, with the headers a
// desktop Chrome sends for a page, autocannon loads Podium (the build) at 20 connections:
//
//   1. PostgreSQL with 10,000 bulk presentations (`seed:bulk`, plus the demo seed);
//   2. the same database topped up to 100,000 (the same run id: only the missing 90,000 are added);
//   3. PGlite with 10,000.
//
// At each size: the baseline, the home page (no search), then search: 200 different real words
// taken from the demo decks' text (common and rare alike), one after the other across the
// connections, so no answer is asked for twice in a row; and suggest (GET /api/search/suggest?q=)
// when this build has it. The page cache is off (PODIUM_PAGE_CACHE_MB=0): with it, the 200
// pages would be served from memory after their first request, and this measures the query.
// The rate limit is lifted. At 100,000 on PostgreSQL and on PGlite, the same searches are then
// measured as served by default (page cache on), reported beside and never judged. The table
// gives req/s, p50, p99 and search's req/s as a ratio to the home page's in the same run, then the goals as PASS/MISS lines (never enforced): search
// p99 ≤ 50 ms at 100,000 on PostgreSQL, ≤ 150 ms at 10,000 on PGlite, suggest p99 ≤ 20 ms.
// Non-2xx answers or request errors make the figures untrustworthy: the run then exits 1.
//
// Issue 32: the bulk decks are seeded in the skewed shapes (`seed:bulk --skewed`: every deck newer
// than the staff picks, no views, one tag on every other deck, one owner with every other deck).
// At 100,000 on PostgreSQL, also: search at a steady 100 searches/s offered (evenly spaced, open
// loop, latency from each request's due time: support.steadyLoad; autocannon's bursty overallRate
// is printed beside it and not judged), the 200 words in turn (goal p99 ≤ 50 ms), and each page
// around the catalogue —
// home, explore, search, a profile, the sitemap, a view page and its "More from" / "Related"
// (more.json) — against the same page on a database with the demo content alone, in the same run
// (each page on both, one right after the other),
// page cache off (issue 32 item 2: at 100,000 decks a page costs at most 2× its demo-size render,
// i.e. keeps at least half its demo-size req/s). Per page: req/s, p50, p99, the server's CPU
// and PostgreSQL's (every postgres process of the machine) per request.
//
// Home and search are measured in turns, 3 times by default (--rounds): each pair is printed, and the
// table and the goal take the pair whose search ÷ home is the median (one pair alone moved by 0.3
// between runs on this shared machine).
//
// Usage: npm run bench:search [-- --duration 10 --warmup 3 --connections 20 --workers 1 --rounds 3
//          --database postgres://root@127.0.0.1:5432/test --large 100000 --small 10000
//          --large-database URL (an existing database already seeded with --large presentations)
//          --no-pglite --no-pages --build]
// The load average is printed at the start and the end: on a shared machine other work moves
// the figures, and the ratios are the figures to compare.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import pg from "pg";
import * as support from "./support.mjs";

process.chdir(support.ROOT);

const DURATION_S = support.option("duration", 10);
const WARMUP_S = support.option("warmup", 3);
/** Issue 15: 20 connections over 200 different real-word queries. */
const CONNECTIONS = Math.floor(support.option("connections", 20));
const QUERY_COUNT = 200;
const WORKERS = Math.floor(support.option("workers", 1));
/** Issue 32 item 3: home and search measured in turns this many times (the median pair is judged). */
const ROUNDS = Math.max(1, Math.floor(support.option("rounds", 3)));
const SMALL = Math.floor(support.option("small", 10_000));
const LARGE = Math.floor(support.option("large", 100_000));
const DATABASE_ADMIN_URL = support.argument("database") ?? "postgres://root@127.0.0.1:5432/test";
const LARGE_DATABASE_URL = support.argument("large-database") ?? null;
const WITH_PGLITE = !process.argv.includes("--no-pglite");
/** Issue 32 item 2: the pages at 100,000 against the demo content alone (off with --no-pages). */
const WITH_PAGES = !process.argv.includes("--no-pages");
/** Issue 32 item 3: searches offered per second, steadily, whatever the answers' pace. */
const STEADY_RATE = 100;
/** Connections for the per-page comparison: fewer than the search runs', so a slow page still gets its turn. */
const PAGE_CONNECTIONS = Math.floor(support.option("page-connections", 10));
/** Issue 32's goals, reported as PASS/MISS and never enforced. */
const GOAL_SEARCH_HOME_RATIO = 0.5;
const GOAL_STEADY_P99_MS = 50;
/** At 100,000 a page keeps at least this share of its demo-size req/s (costs at most 2×). */
const GOAL_PAGE_RATIO = 0.5;
/** Issue 15's goals, reported as PASS/MISS and never enforced. */
const GOAL_PG_LARGE_P99_MS = 50;
const GOAL_PGLITE_SMALL_P99_MS = 150;
const GOAL_SUGGEST_P99_MS = 20;
/** One run id for every size: topping 10k up to 100k adds only what is missing. */
const RUN_ID = "bench";
/** Words too common to say anything (they still count: "the" is in the set the issue measured). */
const SKIPPED = new Set(["with", "that", "this", "from", "your", "they", "them", "than", "then", "what", "when"]);

/**
 * 200 different real words of the demo decks (the vocabulary seed:bulk builds from), spread over
 * how common they are: every k-th of them from the most to the least frequent, plus "the".
 */
function realWords() {
  const dir = "src/server/seed/content/decks";
  const counts = new Map();
  for (const file of readdirSync(dir)) {
    let word = "";
    for (const char of `${readFileSync(join(dir, file), "utf8")} `) {
      if (/\p{L}/u.test(char)) word += char.toLowerCase();
      else {
        if ([...word].length >= 4 && !SKIPPED.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
        word = "";
      }
    }
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([w]) => w);
  const step = Math.max(1, Math.floor(sorted.length / (QUERY_COUNT - 1)));
  const words = ["the"];
  for (let i = 0; i < sorted.length && words.length < QUERY_COUNT; i += step) words.push(sorted[i]);
  if (words.length < QUERY_COUNT) throw new Error(`only ${words.length} different words in the demo decks`);
  return words;
}

const WORDS = realWords();

function seedBulk(count, database) {
  const started = performance.now();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  if (database.dataDir) env.PODIUM_DATA_DIR = database.dataDir;
  const args = ["scripts/seed-bulk.mjs", "--count", String(count), "--run-id", RUN_ID, "--skewed"];
  if (database.url) args.push("--database", database.url);
  execFileSync(process.execPath, args, { cwd: support.ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
  return (performance.now() - started) / 1000;
}

/**
 * Loads `paths` in turn (one path per request, cycling) and returns autocannon's figures.
 * `rate`: requests offered per second in all (autocannon's overallRate), else as fast as answered.
 * `cpu`: a cpuMeter's reading per request over the measured part.
 */
async function load(port, paths, accept, { connections = CONNECTIONS, rate, cpu } = {}) {
  let next = 0;
  const options = {
    url: `http://${support.HOST}:${port}`,
    connections,
    ...(rate ? { overallRate: rate } : {}),
    // A loaded machine answers slowly: a slow answer is a figure, not an error.
    timeout: 60,
    headers: accept ? { ...support.BROWSER_HEADERS, accept } : support.BROWSER_HEADERS,
    requests: [
      {
        setupRequest: (request) => {
          const path = paths[next % paths.length];
          next += 1;
          return { ...request, path };
        },
      },
    ],
  };
  await support.cannon({ ...options, duration: WARMUP_S });
  const meter = cpu?.();
  const result = await support.cannon({ ...options, duration: DURATION_S });
  const perRequest = meter?.(result.requests.total) ?? {};
  const codes = support.statusCodesOf(result);
  const bad = Object.entries(codes).filter(([code]) => !code.startsWith("2"));
  if (result.errors > 0 || result.timeouts > 0 || bad.length > 0)
    throw new Error(`untrustworthy run on ${paths[0]}: ${JSON.stringify({ codes, errors: result.errors })}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: perRequest };
}

/** Each figure as soon as it is measured (a long run that fails late still says what it saw). */
function report(row) {
  console.log(
    `  ${row.name}: ${row.target}: ${row.rps.toFixed(0)} req/s, p50 ${support.ms(row.p50)} ms, p99 ${support.ms(row.p99)} ms (load ${loadavg()[0].toFixed(2)})`,
  );
  return row;
}

const searchPaths = () => WORDS.map((word) => `/explore/search/?search=${encodeURIComponent(word)}`);

/**
 * Issue 32 item 3: waits until the server's search index in memory is built (its search pages say
 * so: podium-search-index), and says how long that took from the server's start.
 */
async function searchIndexReady(port, startedAt) {
  for (;;) {
    const probe = await support.request(port, { path: "/explore/search/?search=the" });
    if (probe.headers["podium-search-index"] === "memory") break;
    if (performance.now() - startedAt > 300_000) throw new Error("the search index wasn't built within 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (performance.now() - startedAt) / 1000;
}

async function measure(name, database, { steady = false } = {}) {
  const port = await support.freePort();
  const startedAt = performance.now();
  const server = await support.startPodium(port, database, {
    PODIUM_PAGE_CACHE_MB: "0",
    PODIUM_WORKERS: String(WORKERS),
  });
  try {
    const rows = [];
    // The suggestion index (every listed title) builds as the server starts, in turns (seconds of
    // CPU at 100,000): asking for a suggestion waits for it, so the baseline isn't measured beside it.
    await support.request(port, { path: "/api/search/suggest?q=sour" });
    // And the search index in memory (issue 32 item 3), built in the background after it.
    const ready = await searchIndexReady(port, startedAt);
    console.log(`  ${name}: search index in memory ready ${ready.toFixed(1)} s after the start`);
    // Home and search in turns, ROUNDS times: on a shared machine one pair can meet a slow moment
    // of the other's; the table gives the pair whose ratio is the median (every pair is printed).
    const pairs = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const home = await load(port, ["/"]);
      report({ name, target: `home (baseline), round ${round}`, ...home, ratio: 1 });
      const search = await load(port, searchPaths());
      report({ name, target: `search, ${QUERY_COUNT} words, round ${round}`, ...search, ratio: search.rps / home.rps });
      console.log(`  ${name}: round ${round}: search ÷ home ${(search.rps / home.rps).toFixed(3)}`);
      pairs.push({ home, search, ratio: search.rps / home.rps });
    }
    const { home, search } = [...pairs].sort((a, b) => a.ratio - b.ratio)[(pairs.length - 1) >> 1];
    if (pairs.length > 1)
      console.log(
        `  ${name}: search ÷ home by round ${pairs.map((pair) => pair.ratio.toFixed(3)).join(", ")}; median ${(search.rps / home.rps).toFixed(3)}`,
      );
    rows.push({ name, target: "home (baseline)", ...home, ratio: 1 });
    rows.push({ name, target: `search, ${QUERY_COUNT} words`, ...search, ratio: search.rps / home.rps });
    if (steady) {
      // The judged figure: evenly spaced, open loop, latency from each request's due time (support.steadyLoad).
      const even = await support.steadyLoad(port, searchPaths(), {
        rate: STEADY_RATE,
        durationS: DURATION_S,
        warmupS: WARMUP_S,
      });
      const bad = Object.keys(even.codes).filter((code) => !code.startsWith("2"));
      if (even.errors > 0 || bad.length > 0)
        throw new Error(`untrustworthy steady run: ${JSON.stringify({ codes: even.codes, errors: even.errors })}`);
      rows.push(
        report({ name, target: `search, steady ${STEADY_RATE}/s`, rps: STEADY_RATE, ...even, ratio: Number.NaN }),
      );
      // autocannon's overallRate beside it, for comparison with earlier runs (bursty; see steadyLoad).
      const paced = await load(port, searchPaths(), undefined, { rate: STEADY_RATE });
      rows.push(report({ name, target: `search, ${STEADY_RATE}/s autocannon (bursty)`, ...paced, ratio: Number.NaN }));
    }
    const probe = await support.request(port, { path: "/api/search/suggest?q=sour" });
    if (probe.status === 200) {
      const suggest = await load(
        port,
        WORDS.map((word) => `/api/search/suggest?q=${encodeURIComponent(word.slice(0, 4))}`),
        "application/json",
      );
      rows.push(report({ name, target: "suggest", ...suggest, ratio: suggest.rps / home.rps }));
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/**
 * Issue 32 item 3: the same 200 searches answered by the statement alone (PODIUM_SEARCH_INDEX=database,
 * the design before the index in memory), beside its own home page: the baseline of this run.
 */
async function measureStatement(name, database) {
  const port = await support.freePort();
  const server = await support.startPodium(port, database, {
    PODIUM_PAGE_CACHE_MB: "0",
    PODIUM_WORKERS: String(WORKERS),
    PODIUM_SEARCH_INDEX: "database",
  });
  try {
    await support.request(port, { path: "/api/search/suggest?q=sour" });
    const home = await load(port, ["/"]);
    const search = await load(port, searchPaths());
    return report({ name, target: `search, statement only`, ...search, ratio: search.rps / home.rps });
  } finally {
    await server.stop();
  }
}

/**
 * The same 200 searches as served by default (page cache on): each page is rendered once, then
 * served from memory while fresh and refreshed in the background. What visitors asking the same
 * searches again get; the goals are judged on the figures above (cache off), which are what a
 * search nobody asked for recently costs.
 */
async function measureAsServed(name, database) {
  const port = await support.freePort();
  const server = await support.startPodium(port, database, { PODIUM_WORKERS: String(WORKERS) });
  try {
    const search = await load(port, searchPaths());
    return report({ name, target: `search, page cache on`, ...search, ratio: Number.NaN });
  } finally {
    await server.stop();
  }
}

/** The first row `sql` answers on `url`, on a connection of its own. */
async function firstRow(url, sql) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0];
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Issue 32 item 2: the pages around the catalogue, each loaded on its own (page cache off), on
 * both databases at once: each page on the demo content, then at once on the large one, so that
 * the two figures of a page meet the same moment of a shared machine. The deck is the demo's first
 * staff pick with tags (the same deck in both databases: the demo seed's keys are stable), the
 * profile its owner's. Returns [{ demo, large }] per page.
 */
async function measurePages(demoDatabase, largeDatabase) {
  const servers = [];
  try {
    const sides = [];
    for (const [name, database] of [
      ["PostgreSQL demo", demoDatabase],
      [`PostgreSQL ${LARGE.toLocaleString("en")}`, largeDatabase],
    ]) {
      const port = await support.freePort();
      const server = await support.startPodium(port, database, {
        PODIUM_PAGE_CACHE_MB: "0",
        PODIUM_WORKERS: String(WORKERS),
      });
      servers.push(server);
      // The suggestion index (every listed title) loads as the server starts, in turns: asking for
      // a suggestion waits for it, so its load isn't counted against the first page measured.
      await support.request(port, { path: "/api/search/suggest?q=sour" });
      const cpu = () =>
        support.cpuMeter({ node: () => support.treeCpuSeconds(server.pid), postgres: support.postgresCpuSeconds });
      sides.push({ name, port, cpu });
    }
    const deck = await firstRow(
      demoDatabase.url,
      `select p.oid, u.oid as owner from presentations p join users u on u.id = p.owner_id
        where p.is_staff_pick and p.privacy = 'public' and not p.hidden and cardinality(p.tags) > 0
        order by p.id limit 1`,
    );
    if (!deck) throw new Error("no staff pick with tags in the demo content");
    const pages = [
      ["home", ["/"]],
      ["explore", ["/explore/"]],
      [`search, ${QUERY_COUNT} words`, searchPaths()],
      ["profile", [`/user/${deck.owner}/`]],
      ["sitemap", ["/sitemap.xml"]],
      ["view page", [`/p/${deck.oid}/`]],
      ["More from, Related", [`/p/${deck.oid}/more.json`]],
    ];
    const rows = [];
    for (const [target, paths] of pages) {
      const figures = [];
      for (const { name, port, cpu } of sides) {
        const measured = await load(port, paths, undefined, { connections: PAGE_CONNECTIONS, cpu });
        figures.push(report({ name, target, ...measured, ratio: Number.NaN }));
      }
      rows.push({ demo: figures[0], large: figures[1] });
    }
    return rows;
  } finally {
    for (const server of servers) await server.stop();
  }
}

await support.runBench("search", async () => {
  support.ensureBuild();
  const load0 = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  console.log(
    `bench:search — ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up, ${WORKERS} worker(s), page cache off`,
  );
  console.log(`load average at start: ${load0} (${availableParallelism()} cores)`);
  const rows = [];
  const seeded = [];

  const pg = await support.temporaryDatabase(DATABASE_ADMIN_URL);
  seeded.push(`PostgreSQL ${SMALL}: seed:bulk ${seedBulk(SMALL, pg).toFixed(1)} s`);
  console.log(seeded.at(-1));
  rows.push(...(await measure(`PostgreSQL ${SMALL.toLocaleString("en")}`, pg)));
  let large = pg;
  if (LARGE_DATABASE_URL) large = { url: LARGE_DATABASE_URL };
  else {
    seeded.push(`PostgreSQL ${LARGE}: seed:bulk top-up ${seedBulk(LARGE, pg).toFixed(1)} s`);
    console.log(seeded.at(-1));
  }
  rows.push(...(await measure(`PostgreSQL ${LARGE.toLocaleString("en")}`, large, { steady: true })));
  rows.push(await measureStatement(`PostgreSQL ${LARGE.toLocaleString("en")}`, large));
  rows.push(await measureAsServed(`PostgreSQL ${LARGE.toLocaleString("en")}`, large));
  const pageRows = [];
  if (WITH_PAGES) {
    const demo = await support.temporaryDatabase(DATABASE_ADMIN_URL);
    console.log(
      `pages, ${PAGE_CONNECTIONS} connections, page cache off: the demo content alone, then ${LARGE.toLocaleString("en")}`,
    );
    pageRows.push(...(await measurePages(demo, large)));
  }
  if (WITH_PGLITE) {
    const dataDir = support.temporaryDirectory("podium-bench-search-");
    seeded.push(`PGlite ${SMALL}: seed:bulk ${seedBulk(SMALL, { dataDir }).toFixed(1)} s`);
    console.log(seeded.at(-1));
    rows.push(...(await measure(`PGlite ${SMALL.toLocaleString("en")}`, { dataDir })));
    rows.push(await measureAsServed(`PGlite ${SMALL.toLocaleString("en")}`, { dataDir }));
  }

  console.log("");
  for (const line of seeded) console.log(line);
  console.log("");
  const line = support.tableHeader(
    ["database", "request", "req/s", "p50 ms", "p99 ms", "req/s ÷ home"],
    [20, 22, 8, 8, 8, 12],
  );
  for (const row of rows)
    console.log(
      line([
        row.name,
        row.target,
        row.rps.toFixed(0),
        support.ms(row.p50),
        support.ms(row.p99),
        Number.isNaN(row.ratio) ? "" : row.ratio.toFixed(2),
      ]),
    );
  if (pageRows.length > 0) {
    console.log("");
    console.log(
      `Pages at ${LARGE.toLocaleString("en")} against the demo content alone (issue 32 item 2; ${PAGE_CONNECTIONS} connections, page cache off; CPU ms per request)`,
    );
    const pageLine = support.tableHeader(
      ["page", "demo req/s", "p50", "node ms", "pg ms", "100k req/s", "p50", "node ms", "pg ms", "÷ demo", "CPU ×"],
      [20, 10, 6, 8, 7, 10, 6, 8, 7, 7, 6],
    );
    const cpuMs = (value) => (typeof value === "number" ? value.toFixed(2) : "–");
    // The server's CPU plus PostgreSQL's (machine-wide, so other work can make it negative: then 0).
    const cpuOf = (row) => (row.cpu.node ?? Number.NaN) + Math.max(0, row.cpu.postgres ?? 0);
    const cpuRatio = (demo, row) => {
      const ratio = cpuOf(row) / cpuOf(demo);
      return Number.isFinite(ratio) ? ratio.toFixed(2) : "–";
    };
    for (const { demo, large: row } of pageRows)
      console.log(
        pageLine([
          row.target,
          demo.rps.toFixed(0),
          support.ms(demo.p50),
          cpuMs(demo.cpu.node),
          cpuMs(demo.cpu.postgres),
          row.rps.toFixed(0),
          support.ms(row.p50),
          cpuMs(row.cpu.node),
          cpuMs(row.cpu.postgres),
          (row.rps / demo.rps).toFixed(2),
          cpuRatio(demo, row),
        ]),
      );
  }
  console.log("");
  const ratioGoal = (label, ratio, limit) => {
    if (ratio === undefined || Number.isNaN(ratio)) return;
    console.log(`${ratio >= limit ? "PASS" : "MISS"}  ${label}: ${ratio.toFixed(2)} (goal ≥ ${limit})`);
  };
  const largeName = `PostgreSQL ${LARGE.toLocaleString("en")}`;
  ratioGoal(
    `search ÷ home req/s at ${LARGE.toLocaleString("en")} on PostgreSQL, both uncached`,
    rows.find((r) => r.name === largeName && r.target === `search, ${QUERY_COUNT} words`)?.ratio,
    GOAL_SEARCH_HOME_RATIO,
  );
  for (const { demo, large: row } of pageRows)
    ratioGoal(`${row.target} at ${LARGE.toLocaleString("en")} ÷ demo size, req/s`, row.rps / demo.rps, GOAL_PAGE_RATIO);
  const goal = (label, row, limit) => {
    if (!row) return;
    console.log(`${row.p99 <= limit ? "PASS" : "MISS"}  ${label}: p99 ${support.ms(row.p99)} ms (goal ≤ ${limit} ms)`);
  };
  goal(
    `search at ${LARGE.toLocaleString("en")} on PostgreSQL`,
    rows.find(
      (r) =>
        r.name.startsWith(`PostgreSQL ${LARGE.toLocaleString("en")}`) && r.target === `search, ${QUERY_COUNT} words`,
    ),
    GOAL_PG_LARGE_P99_MS,
  );
  goal(
    `search at a steady ${STEADY_RATE}/s offered, ${LARGE.toLocaleString("en")} on PostgreSQL`,
    rows.find((r) => r.name === largeName && r.target === `search, steady ${STEADY_RATE}/s`),
    GOAL_STEADY_P99_MS,
  );
  goal(
    `search at ${SMALL.toLocaleString("en")} on PGlite`,
    rows.find((r) => r.name.startsWith("PGlite") && r.target === `search, ${QUERY_COUNT} words`),
    GOAL_PGLITE_SMALL_P99_MS,
  );
  goal(
    `suggest at ${LARGE.toLocaleString("en")} on PostgreSQL`,
    rows.find((r) => r.name.startsWith(`PostgreSQL ${LARGE.toLocaleString("en")}`) && r.target === "suggest"),
    GOAL_SUGGEST_P99_MS,
  );
  console.log(
    `load average at end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
});
