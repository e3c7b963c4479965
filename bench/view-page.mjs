// Benchmark of the view page in Chromium (issue 3): the JavaScript a visitor downloads before
// pressing Present, and the time from Present to the first step shown, on the 50-step demo
// deck. Each figure comes with a baseline measured in the same run:
//   - JS bytes: against the 100 KB (compressed) budget;
//   - Present → first step: against a bare same-origin fetch of the deck's document, i.e.
//     what the network alone costs, so the ratio is the player's own overhead.
// And the HTML (issue 11): the bytes of the anonymous view page of this deck and of the median
// demo deck, and of the home page, in English and German, raw and as sent (brotli), against the
// 40 KB raw budget; and the language's message catalogue, a file of its own fetched once.
// Usage: npm run build && npm run bench:view [-- --runs 7]
import { spawn } from "node:child_process";
import { request } from "node:http";
import { createServer } from "node:net";
import { JSDOM } from "jsdom";
import { chromium } from "playwright-core";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 7;
const JS_BUDGET_BYTES = 100 * 1024;
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

const jsBytes = [];
const presentMs = [];
const fetchMs = [];
let steps = 0;
for (let run = 0; run < RUNS; run += 1) {
  // A fresh context each run: a first visit, nothing cached.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const scripts = new Map();
  let counting = true;
  cdp.on("Network.responseReceived", (event) => {
    if (counting && event.type === "Script") scripts.set(event.requestId, 0);
  });
  cdp.on("Network.loadingFinished", (event) => {
    if (counting && scripts.has(event.requestId)) scripts.set(event.requestId, event.encodedDataLength);
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]");
  counting = false;
  jsBytes.push([...scripts.values()].reduce((sum, n) => sum + n, 0));

  // Baseline: the network alone, fetching the same document the player loads.
  const documentUrl = new URL("document.json", url.replace(/[^/]+\/$/, "")).toString();
  fetchMs.push(
    await page.evaluate(async (href) => {
      const start = performance.now();
      await (await fetch(href, { cache: "no-store" })).json();
      return performance.now() - start;
    }, documentUrl),
  );

  presentMs.push(
    await page.evaluate(
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
    ),
  );
  steps = Number(await page.locator(".viewer").getAttribute("data-step-count"));
  await context.close();
}

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

const js = median(jsBytes);
const present = median(presentMs);
const network = median(fetchMs);
console.log(`View page benchmark: ${DECK} (${steps} steps), ${RUNS} cold runs, medians`);
console.log(
  `  JavaScript before Present: ${(js / 1024).toFixed(1)} KB compressed (budget 100 KB; ratio ${(js / JS_BUDGET_BYTES).toFixed(2)})`,
);
console.log(`  Present → first step shown: ${present.toFixed(0)} ms`);
console.log(
  `  Baseline, fetching the document alone: ${network.toFixed(1)} ms (ratio ${(present / network).toFixed(1)}×)`,
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
    jsBytesBeforePresent: js,
    jsBudgetBytes: JS_BUDGET_BYTES,
    presentToFirstStepMs: Math.round(present),
    documentFetchMs: Number(network.toFixed(1)),
    htmlBytes: html,
    htmlBudgetBytes: HTML_BUDGET_BYTES,
    catalogueBytes: catalogues,
  }),
);
