// Checks that imports point one way (ARCHITECTURE.md): server → features → ui/db/i18n/document → lib.
// React components and browser entries never reach a repository, a service, a route or the
// database. No circles: neither between files under src/ nor between features (issue 11); a
// file circle counts `import type` too (issue 31, item 4: two files that can't be read apart).
// The layer rules and the feature circles ignore `import type`: types vanish at build time. The
// sources are read by a parser (oxc, through Vite), never by patterns: comments and strings that
// look like imports aren't imports.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseSync } from "vite";
import { describeCycle, featureOf, findCycles } from "./find-cycles.mjs";

const ROOT = resolve("src");

/**
 * [where the importing file is, what it may not import, why, { tests: true } where the rule binds
 * test files too]. Test files are otherwise free: they import whatever they prove.
 */
const RULES = [
  [/^lib\//, /^(?!lib\/)/, "lib/ holds pure helpers and imports nothing else of Podium"],
  [/^lib\//, /^node:/, "lib/ runs in the browser too: no Node built-ins"],
  [/^i18n\//, /^(?!(i18n|lib)\/)/, "i18n/ may import lib/ only"],
  [/^ui\//, /^(?!(ui|lib|i18n)\/)/, "ui/ is shared presentation: it may import ui/, lib/, i18n/ only"],
  [/^db\//, /^(?!(db|lib)\/|node:)/, "db/ may import lib/ only"],
  // Issue 31, item 3: test support lives in testing/ folders; tests and other test support use it,
  // the product never does.
  [/^(?!(.*\/)?testing\/)/, /(^|\/)testing(\/|$)/, "a testing/ module is test support: product code never imports it"],
  // Issue 31, item 1: the presentation document (schema, readers, writers, layout) is below every
  // feature; features, the server and the browser entries import it, it imports lib/ only.
  [/^document\//, /^(?!(document|lib)\/)/, "document/ is below the features: it may import lib/ only", { tests: true }],
  [/^/, /^features\/presentation\/document(\/|$)/, "the document lives in document/ (issue 31)", { tests: true }],
  [/^features\//, /^(server|client)\//, "features/ may not import the server or browser entries"],
  [/\/components\//, /^(db|server)\/|\/(repository|service|routes)$/, "components never import data access or routes"],
  [/\/components\//, /^node:/, "components run in the browser: no Node built-ins"],
  [/^client\//, /^(db|server)\/|\/(repository|service|routes)$/, "browser entries never import data access or routes"],
  [/^client\//, /^node:/, "browser entries: no Node built-ins"],
  // Issue 11, item 5: the view pages are composed above the features they show.
  [
    /^features\/(presentation|explore|sidebar)\//,
    /^features\/view-page\//,
    "view-page composes presentation, explore and sidebar: they never import it",
  ],
  [
    /^features\/presentation\//,
    /^features\/(explore|sidebar)\//,
    "presentation is below explore and sidebar (they show its cards): it never imports them",
  ],
];

/** Source files, tests too (the rules marked `tests` bind them; nothing imports a test, so no circle runs through one). */
function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}
const isTest = (path) => /\.test\.tsx?$/.test(path);

/**
 * The modules a file imports: `runtime` (static, re-exports, literal dynamic imports) and `types`
 * (`import type`, `export type … from`). `import { type A } from "…"` is a run-time import: under
 * verbatimModuleSyntax it stays an import of the module.
 */
function importsOf(file, text) {
  const { program, errors } = parseSync(file, text, { lang: file.endsWith(".tsx") ? "tsx" : "ts" });
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const runtime = [];
  const types = [];
  for (const node of program.body) {
    if (node.type === "ImportDeclaration") (node.importKind === "type" ? types : runtime).push(node.source.value);
    else if ((node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") && node.source)
      (node.exportKind === "type" ? types : runtime).push(node.source.value);
  }
  // import("…") can sit anywhere in the tree: walk it without recursion.
  const pending = [program];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node.type === "ImportExpression" && node.source.type === "Literal" && typeof node.source.value === "string")
      runtime.push(node.source.value);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item.type === "string") pending.push(item);
      } else if (value && typeof value.type === "string") pending.push(value);
    }
  }
  return { runtime, types };
}

/** The source file a relative import names, or null (styles, data, raw text). */
function resolveFile(path) {
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, join(path, "index.ts"), join(path, "index.tsx")]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const problems = [];
/** File → the files it imports (paths relative to src/). */
const fileGraph = new Map();
/** Feature → the features it imports, with the first file import that shows each edge. */
const featureGraph = new Map();
const featureEdgeExample = new Map();

let testFiles = 0;
for (const file of sourceFiles(ROOT)) {
  const from = relative(ROOT, file);
  const test = isTest(from);
  if (test) testFiles++;
  else fileGraph.set(from, []);
  let specifiers;
  try {
    const { runtime, types } = importsOf(from, readFileSync(file, "utf8"));
    specifiers = runtime;
    // Issue 31, item 4: a circle of types is a circle too (two modules that can't be read apart).
    if (!test) {
      for (const specifier of types) {
        if (!specifier.startsWith(".")) continue;
        const resolved = resolveFile(resolve(dirname(file), specifier));
        if (resolved) fileGraph.get(from).push(relative(ROOT, resolved));
      }
    }
  } catch (error) {
    problems.push(`${from}: can't be parsed — ${error.message}`);
    continue;
  }
  for (const specifier of specifiers) {
    let target;
    if (specifier.startsWith(".")) {
      const absolute = resolve(dirname(file), specifier.replace(/\?.*$/, ""));
      target = relative(ROOT, absolute).replace(/\.(tsx?|json|css)$/, "");
      const resolved = resolveFile(absolute);
      if (resolved && !test) fileGraph.get(from).push(relative(ROOT, resolved));
    } else if (specifier.startsWith("node:")) target = specifier;
    else continue; // npm packages are governed by package.json, not by layers
    if (target.endsWith(".css")) continue;
    for (const [where, forbidden, why, scope] of RULES) {
      if (test && !scope?.tests) continue;
      if (where.test(from) && forbidden.test(target)) problems.push(`${from}: imports ${specifier} — ${why}`);
    }
    if (test) continue;
    const [fromFeature, toFeature] = [featureOf(from), featureOf(target)];
    if (fromFeature && toFeature && fromFeature !== toFeature) {
      if (!featureGraph.has(fromFeature)) featureGraph.set(fromFeature, new Set());
      featureGraph.get(fromFeature).add(toFeature);
      const edge = `${fromFeature} → ${toFeature}`;
      if (!featureEdgeExample.has(edge)) featureEdgeExample.set(edge, `${from} imports ${specifier}`);
    }
  }
}

for (const cycle of findCycles(featureGraph)) {
  const steps = cycle.slice(1).map((to, i) => `    ${featureEdgeExample.get(`${cycle[i]} → ${to}`)}`);
  problems.push(
    `features import each other in a circle: ${describeCycle(cycle)} — imports between features point one way\n${steps.join("\n")}`,
  );
}
for (const cycle of findCycles(fileGraph)) {
  problems.push(`files import each other in a circle: ${describeCycle(cycle)}`);
}

if (problems.length > 0) {
  console.error(`Layer check failed (${problems.length}):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(
  `Layer check passed: imports point one way, no circles (${fileGraph.size} files and ${testFiles} tests, ${featureGraph.size} features importing others).`,
);
