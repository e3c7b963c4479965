// Benchmark of the view page in Chromium (issues 3, 30), on the 50-step demo deck, cold loads:
//   - JavaScript and total bytes transferred before Present, FCP, LCP and CLS, unthrottled and as a
//     throttled phone, beside the same slides as a static reveal.js page served in the same run;
//   - Present → first step shown, beside a bare same-origin fetch of the deck's document, i.e.
//     what the network alone costs, so the ratio is the player's own overhead.
// And the HTML (issue 11): the bytes of the anonymous view page of this deck and of the median
// demo deck, and of the home page, in English and German, raw and as sent (brotli), against the
// 40 KB raw budget; and the language's message catalogue, a file of its own fetched once.
// Usage: npm run build && npm run bench:view [-- --runs 5]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, request } from "node:http";
import { createServer } from "node:net";
import { gzipSync } from "node:zlib";
import { JSDOM } from "jsdom";
import { chromium } from "playwright-core";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
/** Issue 30: the view page's JavaScript before Present, transferred. */
const JS_BUDGET_BYTES = 90 * 1024;
/** Issue 11: an anonymous view page's HTML, raw. */
const HTML_BUDGET_BYTES = 40 * 1024;
const DECK = "personal-computing-one-year-per-slide";

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["dist/server/main.js"], {
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PODIUM_DATA_DIR: "memory://", PODIUM_LOG: "off" },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (chunk) => {
    out += chunk;
    if (out.includes("podium: serving")) resolve();
  });
  server.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});

const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
const deckUrls = [...new JSDOM(sitemap, { contentType: "text/xml" }).window.document.querySelectorAll("loc")]
  .map((loc) => loc.textContent ?? "")
  .filter((u) => new URL(u).pathname.startsWith("/p/"));
const url = deckUrls.find((u) => u.includes(DECK));
if (!url) throw new Error(`the demo deck ${DECK} is not in the sitemap`);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Issue 30 item 4: a cold load (fresh context, nothing cached) as a visitor meets it: JavaScript and
 * total bytes transferred before Present, FCP, LCP and CLS from Chromium's own entries, and for
 * Podium the time from Present to the first step shown. Unthrottled, and as a throttled phone
 * (Lighthouse's mobile profile: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, 4× slower CPU).
 */
const PROFILES = {
  unthrottled: { viewport: { width: 1280, height: 900 }, network: null, cpu: 1 },
  "throttled phone": {
    viewport: { width: 412, height: 823 },
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
    cpu: 4,
  },
};

async function coldLoad(target, profile, { present }) {
  const context = await browser.newContext({ viewport: profile.viewport });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const vitals = { lcp: 0, cls: 0, lcpElement: "" };
    window.__vitals = vitals;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        vitals.lcp = entry.renderTime || entry.loadTime || entry.startTime;
        vitals.lcpElement = `${entry.element?.tagName.toLowerCase() ?? "?"}.${entry.element?.className ?? ""}${entry.url ? ` ${entry.url}` : ""}`;
      }
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) vitals.cls += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (profile.network) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...profile.network });
  if (profile.cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpu });
  const types = new Map();
  const urls = new Map();
  const bytes = new Map();
  let counting = true;
  cdp.on("Network.responseReceived", (event) => {
    if (!counting) return;
    types.set(event.requestId, event.type);
    urls.set(event.requestId, event.response.url);
  });
  cdp.on("Network.loadingFinished", (event) => {
    if (counting && types.has(event.requestId)) bytes.set(event.requestId, event.encodedDataLength);
  });
  await page.goto(target, { waitUntil: "networkidle" });
  if (present) await page.waitForSelector("html[data-hydrated]");
  // A throttled CPU may paint after the network went quiet: wait for the first paint itself.
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  counting = false;
  if (process.env.BENCH_LIST_FILES)
    for (const [id, size] of bytes) console.log(`    ${types.get(id)} ${size} ${urls.get(id)}`);
  let js = 0;
  let total = 0;
  for (const [id, size] of bytes) {
    total += size;
    if (types.get(id) === "Script") js += size;
  }
  const vitals = await page.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0,
    ttfb: performance.getEntriesByType("navigation")[0]?.responseStart ?? 0,
    ...window.__vitals,
  }));
  let presentMs = null;
  let steps = 0;
  if (present) {
    presentMs = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const player = document.querySelector(".player");
          const start = performance.now();
          const observer = new MutationObserver(() => {
            const viewer = player.querySelector(".viewer");
            if (player.dataset.playerState === "playing" && viewer?.dataset.camera === "settled") {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - start));
            }
          });
          observer.observe(player, { attributes: true, subtree: true, childList: true });
          [...player.querySelectorAll("button")].find((b) => b.textContent.includes("Present")).click();
        }),
    );
    steps = Number(await page.locator(".viewer").getAttribute("data-step-count"));
  }
  await context.close();
  return { js, total, ...vitals, presentMs, steps };
}

/**
 * The baseline of the same run: the same deck's slides as a static reveal.js page (reveal.js from
 * the npm package, its serif theme, which fetches no web font), served by this script with gzip,
 * as a site that hosts reveal.js decks would.
 */
async function serveRevealDeck(documentUrl) {
  const document = await (await fetch(documentUrl)).json();
  const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const byId = new Map();
  const walk = (topics) => {
    for (const topic of topics) {
      byId.set(topic.id, topic);
      walk(topic.topics);
    }
  };
  walk(document.topics);
  const sections = document.path
    .map((id) => byId.get(id))
    .filter((topic) => topic && topic.texts.length > 0)
    .map((topic) => {
      const [first, ...rest] = topic.texts.flatMap((text) => text.paragraphs.map((p) => p.text));
      return `<section><h2>${escapeHtml(first ?? "")}</h2>${rest.map((text) => `<p>${escapeHtml(text)}</p>`).join("")}</section>`;
    })
    .join("\n");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>reveal.js baseline</title><link rel="stylesheet" href="/dist/reveal.css"><link rel="stylesheet" href="/dist/theme/serif.css"></head><body><div class="reveal"><div class="slides">${sections}</div></div><script src="/dist/reveal.js"></script><script>Reveal.initialize({ hash: true });</script></body></html>`;
  const root = new URL("../node_modules/reveal.js/", import.meta.url);
  const files = new Map([
    ["/", { type: "text/html; charset=utf-8", body: Buffer.from(html) }],
    ["/dist/reveal.css", { type: "text/css", body: readFileSync(new URL("dist/reveal.css", root)) }],
    ["/dist/theme/serif.css", { type: "text/css", body: readFileSync(new URL("dist/theme/serif.css", root)) }],
    ["/dist/reveal.js", { type: "text/javascript", body: readFileSync(new URL("dist/reveal.js", root)) }],
  ]);
  for (const file of files.values()) file.gzip = gzipSync(file.body, { level: 9 });
  const server = createHttpServer((request, response) => {
    const file = files.get(new URL(request.url, "http://x").pathname);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
    response.writeHead(200, {
      "content-type": file.type,
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    response.end(gzip ? file.gzip : file.body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

const documentUrl = new URL("document.json", url.replace(/[^/]+\/$/, "")).toString();
const reveal = await serveRevealDeck(documentUrl);
const loads = {};
let steps = 0;
const fetchMs = [];
for (const [name, profile] of Object.entries(PROFILES)) {
  for (const [who, target] of [
    ["podium", url],
    ["reveal.js", reveal.url],
  ]) {
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await coldLoad(target, profile, { present: who === "podium" }));
    loads[`${who}, ${name}`] = runs;
    steps = Math.max(steps, ...runs.map((r) => r.steps));
  }
}
// Baseline of Present → first step: the network alone, fetching the same document the player loads.
{
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  for (let run = 0; run < RUNS; run += 1)
    fetchMs.push(
      await page.evaluate(async (href) => {
        const start = performance.now();
        await (await fetch(href, { cache: "no-store" })).json();
        return performance.now() - start;
      }, documentUrl),
    );
  await context.close();
}
reveal.close();

await browser.close();

/** The bytes of an anonymous GET as they cross the wire: brotli when asked, else as they are. */
const bytesOf = (href, { language, brotli }) =>
  new Promise((resolve, reject) => {
    const headers = {
      ...(language ? { cookie: `language=${language}` } : {}),
      ...(brotli ? { "accept-encoding": "br" } : {}),
    };
    request(`${base}${new URL(href, base).pathname}`, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve(bytes));
    })
      .on("error", reject)
      .end();
  });
const pageBytes = async (href, language) => ({
  raw: await bytesOf(href, { language }),
  brotli: await bytesOf(href, { language, brotli: true }),
});
// The median demo deck by the raw size of its view page (the middle one of the sorted list).
const bySize = await Promise.all(deckUrls.map(async (u) => ({ u, bytes: await bytesOf(u, {}) })));
bySize.sort((a, b) => a.bytes - b.bytes);
const medianDeck = bySize[Math.floor(bySize.length / 2)]?.u ?? url;
const html = {};
for (const [name, href] of [
  [`view page (${DECK})`, url],
  [`view page (median deck: ${new URL(medianDeck).pathname.split("/")[3]})`, medianDeck],
  ["home page", "/"],
]) {
  for (const language of ["en", "de"]) html[`${name}, ${language}`] = await pageBytes(href, language);
}
const catalogueUrl = (language) =>
  fetch(url, { headers: { cookie: `language=${language}` } })
    .then((response) => response.text())
    .then((text) =>
      new JSDOM(text).window.document.querySelector('link[rel="preload"][as="fetch"]')?.getAttribute("href"),
    );
const catalogues = {};
for (const language of ["en", "de"]) {
  const href = await catalogueUrl(language);
  if (href) catalogues[language] = await pageBytes(href, language);
}
server.kill("SIGTERM");

const network = median(fetchMs);
const summary = Object.fromEntries(
  Object.entries(loads).map(([name, runs]) => [
    name,
    {
      jsBytes: median(runs.map((r) => r.js)),
      totalBytes: median(runs.map((r) => r.total)),
      ttfbMs: Math.round(median(runs.map((r) => r.ttfb))),
      fcpMs: Math.round(median(runs.map((r) => r.fcp))),
      lcpMs: Math.round(median(runs.map((r) => r.lcp))),
      cls: Number(median(runs.map((r) => r.cls)).toFixed(4)),
      presentToFirstStepMs: runs[0].presentMs === null ? null : Math.round(median(runs.map((r) => r.presentMs))),
      lcpElement: runs[0].lcpElement,
    },
  ]),
);
console.log(`View page benchmark: ${DECK} (${steps} steps), ${RUNS} cold runs each, medians`);
console.log(
  "  Issue 30 goals: JS ≤ 90 KiB, total ≤ 150 KiB, CLS ≤ 0.02, LCP ≤ 300 ms unthrottled, ≤ 1200 ms throttled,",
);
console.log("  Present → first step ≤ 150 ms. Baseline: the same slides as a static reveal.js page, same run.");
for (const [name, r] of Object.entries(summary)) {
  const present = r.presentToFirstStepMs === null ? "" : `, Present → first step ${r.presentToFirstStepMs} ms`;
  console.log(
    `  ${name}: JS ${(r.jsBytes / 1024).toFixed(1)} KiB, total ${(r.totalBytes / 1024).toFixed(1)} KiB, first byte ${r.ttfbMs} ms, FCP ${r.fcpMs} ms, LCP ${r.lcpMs} ms, CLS ${r.cls}${present} (LCP: ${r.lcpElement})`,
  );
}
for (const name of Object.keys(PROFILES)) {
  const podium = summary[`podium, ${name}`];
  const base = summary[`reveal.js, ${name}`];
  console.log(
    `  ${name}, Podium ÷ reveal.js: LCP ${(podium.lcpMs / base.lcpMs).toFixed(2)}×, total bytes ${(podium.totalBytes / base.totalBytes).toFixed(2)}×`,
  );
}
console.log(
  `  Baseline of Present: fetching the document alone takes ${network.toFixed(1)} ms (Podium's Present is ${(summary["podium, unthrottled"].presentToFirstStepMs / network).toFixed(1)}× that)`,
);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`  HTML, anonymous (budget ${kb(HTML_BUDGET_BYTES)} raw):`);
for (const [name, { raw, brotli }] of Object.entries(html))
  console.log(
    `    ${name}: ${kb(raw)} raw, ${kb(brotli)} brotli${raw > HTML_BUDGET_BYTES ? " (over the budget)" : ""}`,
  );
for (const [language, { raw, brotli }] of Object.entries(catalogues))
  console.log(
    `  Message catalogue (${language}), fetched once and cached a year: ${kb(raw)} raw, ${kb(brotli)} brotli`,
  );
console.log(
  JSON.stringify({
    deck: DECK,
    steps,
    runs: RUNS,
    loads: summary,
    jsBudgetBytes: JS_BUDGET_BYTES,
    documentFetchMs: Number(network.toFixed(1)),
    htmlBytes: html,
    htmlBudgetBytes: HTML_BUDGET_BYTES,
    catalogueBytes: catalogues,
  }),
);
