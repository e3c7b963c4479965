// Checks that imports point one way (ARCHITECTURE.md): server → features → ui/db/i18n → lib.
// React components and browser entries never reach a repository, a service, a route or the
// database. `import type` is free: types vanish at build time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve("src");
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm;

/** [where the importing file is, what it may not import, why]. */
const RULES = [
  [/^lib\//, /^(?!lib\/)/, "lib/ holds pure helpers and imports nothing else of Podium"],
  [/^lib\//, /^node:/, "lib/ runs in the browser too: no Node built-ins"],
  [/^i18n\//, /^(?!(i18n|lib)\/)/, "i18n/ may import lib/ only"],
  [/^ui\//, /^(?!(ui|lib|i18n)\/)/, "ui/ is shared presentation: it may import ui/, lib/, i18n/ only"],
  [/^db\//, /^(?!(db|lib)\/|node:)/, "db/ may import lib/ only"],
  [/^features\//, /^(server|client)\//, "features/ may not import the server or browser entries"],
  [/\/components\//, /^(db|server)\/|\/(repository|service|routes)$/, "components never import data access or routes"],
  [/\/components\//, /^node:/, "components run in the browser: no Node built-ins"],
  [/^client\//, /^(db|server)\/|\/(repository|service|routes)$/, "browser entries never import data access or routes"],
  [/^client\//, /^node:/, "browser entries: no Node built-ins"],
];

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) yield path;
  }
}

const problems = [];
for (const file of sourceFiles(ROOT)) {
  const from = relative(ROOT, file);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(IMPORT)) {
    const isTypeOnly = Boolean(match[2]);
    const specifier = match[3] ?? match[4];
    if (isTypeOnly || !specifier) continue;
    let target;
    if (specifier.startsWith("."))
      target = relative(ROOT, resolve(dirname(file), specifier)).replace(/\.(tsx?|json|css)$/, "");
    else if (specifier.startsWith("node:")) target = specifier;
    else continue; // npm packages are governed by package.json, not by layers
    if (target.endsWith(".css")) continue;
    for (const [where, forbidden, why] of RULES) {
      if (where.test(from) && forbidden.test(target)) problems.push(`${from}: imports ${specifier} — ${why}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Layer check failed (${problems.length}):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("Layer check passed: imports point one way.");
