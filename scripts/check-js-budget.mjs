// Issue 30 item 3: a budget for the JavaScript each page kind loads before any interaction, in
// bytes (deterministic, so stable on a busy machine), not timings. From the production client
// build (dist/client, `npm run build`), for each page kind: its entry script plus every chunk the
// server's HTML links as <link rel="modulepreload"> — the same walk as loadClientAssets
// (src/server/render/assets.ts): the entry's static imports, transitively. Chunks imported
// dynamically (the player's viewer, modals, …) load on interaction and are not counted.
// Each file is counted gzipped (zlib's default level, as @fastify/compress serves gzip); beside it,
// what a browser is sent: the build's brotli of the file (scripts/build.mjs), when there is one.
// Prints every page's figure; exits 1 when one exceeds its budget.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const CLIENT_DIR = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "dist/client";
const KIB = 1024;

/**
 * Page kind → its client entry (src/client/entries.ts) and budget in KiB gzip: each page's measured
 * figure rounded up a little, so that growth fails and is a decision (change the budget here,
 * saying why in the commit). The view page measured 108.3 KiB before issue 30, 93.8 KiB after
 * its first steps, 91.3 KiB once the parts only some people see were split off and the small
 * shared files joined the shell, and 89.6 KiB once the browser's catalogues came compiled, the
 * lists beside the deck loaded as they near and the cookie bar where it shows (ARCHITECTURE.md,
 * "What loads when"): issue 30's goal, VIEW_PAGE_GOAL_KIB, is its budget.
 */
export const VIEW_PAGE_GOAL_KIB = 90;
export const BUDGETS = [
  { page: "view page", entry: "src/client/presentation.tsx", budgetKiB: VIEW_PAGE_GOAL_KIB },
  { page: "embed", entry: "src/client/embed.tsx", budgetKiB: 80 },
  { page: "home", entry: "src/client/home.tsx", budgetKiB: 78 },
  { page: "explore", entry: "src/client/explore.tsx", budgetKiB: 82 },
  { page: "reading mode", entry: "src/client/reading.tsx", budgetKiB: 78 },
];

/** The files a page loads before interaction: its entry and what the server preloads for it. */
export function filesBeforeInteraction(manifest, entryKey) {
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the client build's manifest`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return files;
}

function main() {
  const manifestPath = join(CLIENT_DIR, ".vite", "manifest.json");
  if (!existsSync(manifestPath)) {
    console.error(`js budget: no client build at ${CLIENT_DIR} (run npm run build first)`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const gzipped = new Map();
  const sizeOf = (file) => {
    if (!gzipped.has(file)) {
      const bytes = readFileSync(join(CLIENT_DIR, file));
      const brotli = join(CLIENT_DIR, `${file}.br`);
      gzipped.set(file, {
        raw: bytes.length,
        gzip: gzipSync(bytes).length,
        sent: existsSync(brotli) ? readFileSync(brotli).length : gzipSync(bytes).length,
      });
    }
    return gzipped.get(file);
  };
  const verbose = process.argv.includes("--files");
  let over = 0;
  for (const { page, entry, budgetKiB } of BUDGETS) {
    const files = filesBeforeInteraction(manifest, entry);
    const sizes = files.map((file) => ({ file, ...sizeOf(file) }));
    const gzip = sizes.reduce((sum, s) => sum + s.gzip, 0);
    const raw = sizes.reduce((sum, s) => sum + s.raw, 0);
    const sent = sizes.reduce((sum, s) => sum + s.sent, 0);
    const fits = gzip <= budgetKiB * KIB;
    if (!fits) over += 1;
    console.log(
      `${fits ? "✓" : "✗"} ${page.padEnd(13)} ${(gzip / KIB).toFixed(1).padStart(6)} KiB gzip of ${String(budgetKiB).padStart(3)} KiB` +
        `  (${files.length} files, ${(raw / KIB).toFixed(1)} KiB raw, ${(sent / KIB).toFixed(1)} KiB sent as brotli)${fits ? "" : "  OVER BUDGET"}`,
    );
    if (verbose || !fits) {
      for (const s of sizes.sort((a, b) => b.gzip - a.gzip))
        console.log(
          `    ${(s.gzip / KIB).toFixed(1).padStart(6)} KiB gzip  ${(s.raw / KIB).toFixed(1).padStart(6)} KiB raw  ${s.file}`,
        );
    }
  }
  if (over > 0) {
    console.error(`js budget: ${over} page kind(s) load more JavaScript before interaction than their budget`);
    process.exit(1);
  }
}

main();
