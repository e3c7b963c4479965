// `npm test`: every check and every test, in order, and one closing line with the totals:
// type-check, lint, layer check, unit and route tests (Vitest, on PGlite and, when
// TEST_DATABASE_URL is set, on that PostgreSQL too), the build, the JavaScript budget of each page
// kind (scripts/check-js-budget.mjs), then end-to-end tests in
// Debian's Chromium. A check counts as one test. Every step runs even when one fails.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";

const node = process.execPath;
mkdirSync("reports", { recursive: true });
for (const file of ["reports/vitest.json", "reports/e2e.json"]) rmSync(file, { force: true });

const results = [];
/** How many of the slowest test files the end of a run lists. */
const SLOWEST_FILES = 15;
/** Issue 29: each step's seconds, printed at the end with the slowest test files. */
const stepTimes = [];
function run(name, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  const status = spawnSync(node, args, { stdio: "inherit", env: { ...process.env, ...env } }).status;
  stepTimes.push({ name, seconds: (Date.now() - started) / 1000 });
  console.log(
    `━━ ${name}: ${status === 0 ? "ok" : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return status === 0;
}
function check(name, args) {
  const ok = run(name, args);
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  return ok;
}
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

check("type-check", ["node_modules/typescript/bin/tsc", "--noEmit"]);
check("lint", ["node_modules/@biomejs/biome/bin/biome", "ci", "--colors=off", "--error-on-warnings", "."]);
check("layer check", ["scripts/check-layers.mjs"]);

const vitestOk = run("unit and route tests (Vitest)", [
  "node_modules/vitest/vitest.mjs",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile=reports/vitest.json",
]);
const vitest = readJson("reports/vitest.json");
if (vitest) {
  const failed = vitest.numFailedTests + (vitest.numFailedTestSuites > 0 && vitest.numFailedTests === 0 ? 1 : 0);
  results.push({
    name: "vitest",
    passed: vitest.numPassedTests,
    // A run that failed with no failed test (a test process that died, an unhandled error) is one failure.
    failed: failed + (!vitestOk && failed === 0 ? 1 : 0),
  });
} else {
  results.push({ name: "vitest", passed: 0, failed: 1 });
}

const built = check("build", ["scripts/build.mjs"]);
// Issue 30 item 3: the JavaScript each page kind loads before interaction, against its budget (bytes, not timings).
if (built) check("JavaScript budget", ["scripts/check-js-budget.mjs"]);
else results.push({ name: "JavaScript budget (no build)", passed: 0, failed: 1 });

const chromium = ensureChromium();
if (!chromium.ok) {
  console.error(`\npodium: ${chromium.message}`);
  results.push({ name: "e2e (Chromium missing)", passed: 0, failed: 1 });
} else if (!built) {
  results.push({ name: "e2e (no build)", passed: 0, failed: 1 });
} else {
  run("end-to-end tests (Playwright, Chromium)", ["node_modules/@playwright/test/cli.js", "test"]);
  const e2e = readJson("reports/e2e.json");
  if (e2e?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0 } = e2e.stats;
    results.push({ name: "e2e", passed: expected, failed: unexpected + flaky + (e2e.errors?.length ?? 0) });
  } else {
    results.push({ name: "e2e", passed: 0, failed: 1 });
  }
}

// Issue 29 item 1: where the time goes, on every run.
console.log("\n━━ time ━━");
for (const step of stepTimes) console.log(`${step.seconds.toFixed(1).padStart(8)} s  ${step.name}`);
const files = [...vitestFileTimes(readJson("reports/vitest.json")), ...e2eFileTimes(readJson("reports/e2e.json"))];
console.log(`\n━━ the ${SLOWEST_FILES} slowest test files ━━`);
for (const file of files.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_FILES)) {
  console.log(`${file.seconds.toFixed(1).padStart(8)} s  ${file.kind}  ${file.name}`);
}

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log("\n━━ summary ━━");
for (const r of results) console.log(`${r.failed === 0 ? "✓" : "✗"} ${r.name}: ${r.passed} passed, ${r.failed} failed`);
const line = `${passed} passed, ${failed} failed`;
writeFileSync("reports/summary.txt", `${line}\n`);
console.log(line);
process.exit(failed === 0 && existsSync("reports/summary.txt") ? 0 : 1);

/** Each Vitest file's seconds, from its JSON report. */
function vitestFileTimes(report) {
  return (report?.testResults ?? []).map((file) => ({
    kind: "vitest",
    name: String(file.name ?? "").replace(`${process.cwd()}/`, ""),
    seconds: ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
  }));
}

/** Playwright's report nests suites; a file's time is the sum of its tests' runs. */
function e2eFileTimes(report) {
  const byFile = new Map();
  const walk = (suite, file) => {
    const name = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) byFile.set(name, (byFile.get(name) ?? 0) + (result.duration ?? 0));
      }
    }
    for (const inner of suite.suites ?? []) walk(inner, name);
  };
  for (const suite of report?.suites ?? []) walk(suite, suite.file);
  return [...byFile].map(([name, ms]) => ({ kind: "e2e", name: `e2e/${name}`, seconds: ms / 1000 }));
}
