// The CPU cost of one view-page render that the page cache misses (issue 11, item 3: "a cheap
// miss"). One run builds the app in this process on PGlite in memory with the demo content and
// the page cache off (pageCacheMaxBytes: 0), finds the biggest demo view page (the longest
// answer among the sitemap's public pages), warms up, then asks for that page anonymously with
// app.inject again and again and measures process.cpuUsage() (user + system) around each
// request. PGlite runs in this process too, so the figure counts the queries' CPU as well as the
// rendering: what one miss costs the machine. Prints the median and the p95 in ms of CPU, and
// the wall time and the database statements per render, beside the machine's load.
//
// The figures are reported, never enforced; the run exits non-zero only when a render fails.
//
// Usage: npm run bench:render [-- --renders 200 --warmup 30]
// Bundles the server (vite, SSR build) into node_modules/.cache/podium-render-cost first.
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureBuild } from "./support.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
process.chdir(ROOT);
// React and the libraries around it pick their production build when first imported (as main.ts does).
process.env.NODE_ENV = "production";

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const RENDERS = option("renders", 200);
const WARMUP = option("warmup", 30);
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36", accept: "text/html" };

ensureBuild();

// --- bundle the server sources (Node 20 can't run TypeScript) -----------------------------------
const out = join(ROOT, "node_modules/.cache/podium-render-cost");
const source = join(ROOT, "node_modules/.cache/podium-render-cost-src");
mkdirSync(source, { recursive: true });
const entry = join(source, "entry.ts");
const from = (path) => JSON.stringify(join(ROOT, path));
writeFileSync(
  entry,
  [
    `export { openDatabase } from ${from("src/db/client.ts")};`,
    `export { migrate } from ${from("src/db/migrate.ts")};`,
    `export { seedDemoContent } from ${from("src/server/seed/seed.ts")};`,
    `export { buildApp } from ${from("src/server/app.ts")};`,
    `export { configFromEnv } from ${from("src/server/config.ts")};`,
  ].join("\n"),
);
const { build } = await import("vite");
await build({
  configFile: false,
  // The build's own notes (chunking advice) aren't figures of this bench.
  logLevel: "error",
  build: {
    ssr: true,
    outDir: out,
    emptyOutDir: true,
    target: "node20",
    // Seed decks and migrations come in through import.meta.glob: vite inlines them.
    rolldownOptions: { input: { entry }, output: { chunkFileNames: "[name]-[hash].js" } },
  },
});
const server = await import(pathToFileURL(join(out, "entry.js")).href);

// --- the app: PGlite in memory, demo content, page cache off -----------------------------------
const db = await server.openDatabase({ dataDir: "memory://" });
await server.migrate(db);
await server.seedDemoContent(db);
// Counts the statements the app sends (a render's misses in the small caches show here).
let queries = 0;
const query = db.query.bind(db);
db.query = (sql, params) => {
  queries += 1;
  return query(sql, params);
};
// The production configuration (configFromEnv, so it never falls behind the Config type), with the
// limits lifted and every request a miss: this measures what the page cache saves us from.
const app = await server.buildApp(
  server.configFromEnv(
    {
      PORT: "0",
      HOST: "127.0.0.1",
      PODIUM_DATA_DIR: "memory://",
      PODIUM_PUBLIC_URL: "https://podium.example",
      PODIUM_LOG: "off",
      PODIUM_SEED: "off",
      PODIUM_SECRET: "bench-secret-bench-secret-bench-secret-01",
      PODIUM_RATE_LIMIT: "1000000",
      PODIUM_PAGE_CACHE_MB: "0",
    },
    // The build's worker scripts (the document worker, the PDF converter): without them the pools
    // start threads that fail, over and over, and their CPU would count as the renders'.
    { clientDir: null, workerDir: join(ROOT, "dist/server") },
  ),
  db,
);

const get = async (url) => {
  const response = await app.inject({ method: "GET", url, headers: BROWSER });
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode}`);
  return response;
};

// The biggest demo view page: the longest answer among the sitemap's presentations.
const sitemap = (await get("/sitemap.xml")).body;
const paths = sitemap
  .split("<loc>")
  .slice(1)
  .map((part) => new URL(part.slice(0, part.indexOf("</loc>"))).pathname)
  .filter((path) => path.startsWith("/p/"));
let biggest = { path: "", bytes: 0 };
for (const path of paths) {
  const bytes = Buffer.byteLength((await get(path)).body);
  if (bytes > biggest.bytes) biggest = { path, bytes };
}
if (!biggest.path) throw new Error("no demo view page in the sitemap");

for (let i = 0; i < WARMUP; i += 1) await get(biggest.path);

const cpuMs = [];
const wallMs = [];
const queriesBefore = queries;
for (let i = 0; i < RENDERS; i += 1) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await get(biggest.path);
  const used = process.cpuUsage(cpu);
  wallMs.push(performance.now() - wall);
  cpuMs.push((used.user + used.system) / 1000);
}
const queriesPerRender = (queries - queriesBefore) / RENDERS;
await app.close();

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (value) => value.toFixed(2);
console.log(
  `render-cost: ${biggest.path} (${Math.round(biggest.bytes / 1024)} KiB of HTML), ${RENDERS} anonymous renders after ${WARMUP} warm-up, page cache off`,
);
console.log(`  CPU per render:  median ${ms(quantile(cpuMs, 0.5))} ms, p95 ${ms(quantile(cpuMs, 0.95))} ms`);
console.log(`  wall per render: median ${ms(quantile(wallMs, 0.5))} ms, p95 ${ms(quantile(wallMs, 0.95))} ms`);
console.log(`  database statements per render: ${queriesPerRender.toFixed(2)}`);
console.log(
  `  machine: ${availableParallelism()} cores, load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
