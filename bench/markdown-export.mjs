// Benchmark of the Markdown export (issue 10): the editor asks the document worker for the
// Markdown of a deck that has no stored source, with a 1.5 s limit. Goal: a 500-slide deck
// exports well within it, and the time grows linearly with the deck.
//
// One run bundles the importer and the exporter (rolldown, no server), makes rich Markdown decks
// of about 75, 150 and 300 KB (headings, lines with bold, italic, code and links, numbered and
// nested lists, tasks, quotes, fenced code, tables, speaker notes, images), imports each as the
// server does (with highlighting) and times documentToMarkdown on the document: the first run
// (cold) and the median of the next ones. A second deck of punctuation-heavy lines (every line
// needs escaping and reading back) shows the slow path. Each line shows the import's time too.
//
// The figures and the goal are reported, never enforced; the run exits non-zero only when an
// export doesn't import back as the same document.
//
// Usage: node bench/markdown-export.mjs [--runs 7]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const at = process.argv.indexOf("--runs");
const RUNS = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 7) : 7;
const GOAL_MS = 1500;

const dir = mkdtempSync(join(tmpdir(), "podium-export-bench-"));
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  [
    `export { importMarkdown } from ${JSON.stringify(join(ROOT, "src/document/markdown.ts"))};`,
    `export { documentToMarkdown } from ${JSON.stringify(join(ROOT, "src/document/markdown-export.ts"))};`,
    `export { highlightCode } from ${JSON.stringify(join(ROOT, "src/document/highlight.ts"))};`,
  ].join("\n"),
);
await build({
  input: entry,
  platform: "node",
  logLevel: "silent",
  output: { file: join(dir, "bundle.mjs"), format: "esm" },
});
const { importMarkdown, documentToMarkdown, highlightCode } = await import(pathToFileURL(join(dir, "bundle.mjs")).href);
rmSync(dir, { recursive: true, force: true });

/** One rich slide (about 600 characters), varied by its number. */
function richSlide(n) {
  const kinds = [
    () =>
      `## Numbers for quarter ${n}\n1. **Revenue** grew by _${n}%_\n2. Costs fell, see [the report](https://example.com/r/${n})\n   - [x] audited\n   - [ ] published\n3. Next: \`deploy --stage ${n}\``,
    () =>
      `> Simplicity is prerequisite for reliability (${n}).\n> - ~~old~~ new\n\nA line with *emphasis*, **strength** and a [mail](mailto:team${n}@example.com).`,
    () =>
      `\`\`\`ts\nexport function step${n}(input: string): number {\n  // count the words\n  return input.split(/\\s+/).length + ${n};\n}\n\`\`\``,
    () =>
      `| Region | Q${n} | Change |\n|:--|:-:|--:|\n| North | **${n * 3}** | +${n}% |\n| South | \`${n * 2}\` | -1% |\n| West | [${n}](https://example.com/w) | 0 |`,
    () =>
      `- Point one about ${n}\n  - nested detail with _style_\n    - deeper still\n- Point two\n\n![Chart ${n}](/assets/chart-${n % 7}.png)`,
  ];
  return `# Slide ${n}: a title with **bold**\n${kinds[n % kinds.length]()}\n\nNote: say something about ${n}, slowly.\nAnd a second line of notes.`;
}

/** A slide whose every line is punctuation that Markdown would read (each needs escaping). */
function punctuationSlide(n) {
  const lines = [
    `- 2 * 3 * ${n} = [x] <b> & ~~ \`tick`,
    `1) ordered? no: 1\\. and \\# and \\|`,
    `**bold *nested* ${n}** then a_b_c and *a **b***`,
    `[link](https://example.com/(paren) "title") ![img](https://x.test/${n}.png)`,
  ];
  return [
    `# *Stars* and _underscores_ ${n} #`,
    ...lines,
    `- 2 * 3 * ${n} = [x] <b> & ~~ \`tick`,
    `1) ordered? no: 1\\. and \\# and \\|`,
    `**bold *nested* ${n}** then a_b_c and *a **b***`,
    `[link](https://example.com/(paren) "title") ![img](https://x.test/${n}.png)`,
    ...lines,
  ].join("\n");
}

function deckOf(slide, bytes) {
  const slides = [];
  let length = 0;
  for (let n = 1; length < bytes; n += 1) {
    const text = slide(n);
    slides.push(text);
    length += text.length + 5;
  }
  return slides.join("\n\n---\n\n");
}

function strip(document) {
  const topic = (t) => ({
    ...t,
    texts: t.texts.map(({ id, ...text }) => text),
    images: t.images.map(({ id, ...image }) => image),
    topics: t.topics.map(topic),
  });
  return JSON.stringify({ ...document, topics: document.topics.map(topic) });
}

function measure(name, source) {
  let start = performance.now();
  const document = importMarkdown(source, "2", { highlight: highlightCode });
  const imported = performance.now() - start;
  const slides = document.topics[0].topics.length;
  start = performance.now();
  const markdown = documentToMarkdown(document);
  const cold = performance.now() - start;
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    start = performance.now();
    documentToMarkdown(document);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const again = importMarkdown(markdown, "2", { highlight: highlightCode });
  const same = strip(again) === strip(document);
  console.log(
    `${name.padEnd(22)} ${String(Math.round(source.length / 1000)).padStart(4)} KB ${String(slides).padStart(5)} slides  cold ${cold.toFixed(0).padStart(5)} ms  median ${median.toFixed(0).padStart(5)} ms  (${(median / slides).toFixed(2)} ms/slide; import ${imported.toFixed(0)} ms)  round trip ${same ? "same" : "DIFFERENT"}`,
  );
  return { same, median };
}

console.log(
  `Markdown export, ${RUNS} warm runs each; goal: a 500-slide deck well within ${GOAL_MS} ms (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs)`,
);
let ok = true;
for (const kb of [75, 150, 300]) ok = measure(`rich deck`, deckOf(richSlide, kb * 1000)).same && ok;
for (const kb of [75, 150]) ok = measure(`punctuation deck`, deckOf(punctuationSlide, kb * 1000)).same && ok;
if (!ok) {
  console.error("An export didn't import back as the same document.");
  process.exit(1);
}
