import type { MouseEvent, ReactNode } from "react";
import { isSafeHref, labelShowsTarget, linkTargetLabel } from "../../../../document/safe-link";
import type { Paragraph, Run, Text } from "../../../../document/schema";

/**
 * Rich text of the document (version 2), shared by the slides, the transcript and the previews:
 * marks and links in runs, nested and numbered lists, task items, quotes, code and tables. It
 * carries no CSS of its own (the transcript is in every view page's bundle): slide.css styles it
 * under `.topic`, presentation.css under `.transcript`. No zod here either (safe-link.ts).
 */

/** Clicking a link on a slide opens it; it doesn't also move the presentation on. */
const keepClickOnLink = (event: MouseEvent) => event.stopPropagation();

function runsOf(paragraph: Pick<Paragraph, "text" | "runs">): Run[] {
  return paragraph.runs && paragraph.runs.length > 0 ? paragraph.runs : [{ text: paragraph.text }];
}

function markedRun(run: Run, key: number): ReactNode {
  let node: ReactNode = run.text;
  if (run.token) {
    const classes = run.token
      .split(" ")
      .filter(Boolean)
      .map((token) => `tok-${token}`)
      .join(" ");
    node = <span className={`tok ${classes}`}>{node}</span>;
  }
  const marks = run.marks ?? [];
  if (marks.includes("code")) node = <code className="rt-code-inline">{node}</code>;
  if (marks.includes("strike")) node = <s>{node}</s>;
  if (marks.includes("em")) node = <em>{node}</em>;
  if (marks.includes("strong")) node = <strong>{node}</strong>;
  return <span key={key}>{node}</span>;
}

/**
 * A paragraph's runs. Consecutive runs with the same safe link become one link, titled with its
 * target when the label doesn't already say it; an unsafe address is never linked (plain text).
 */
export function Runs({ runs }: { runs: Run[] }) {
  const out: ReactNode[] = [];
  let index = 0;
  while (index < runs.length) {
    const run = runs[index] as Run;
    const href = run.href && isSafeHref(run.href) ? run.href : null;
    if (!href) {
      out.push(plainRun(run, index));
      index += 1;
      continue;
    }
    const group: Run[] = [];
    const start = index;
    while (index < runs.length && runs[index]?.href === href) {
      group.push(runs[index] as Run);
      index += 1;
    }
    const label = group.map((r) => r.text).join("");
    // Issue 28: nothing is drawn after the link that the author didn't write; where it goes shows
    // on hover (its title, and the browser's status bar) when the label doesn't say it.
    out.push(
      <a
        key={`link-${start}`}
        className="rt-link"
        href={href}
        rel="noopener noreferrer nofollow"
        target="_blank"
        title={labelShowsTarget(label, href) ? undefined : linkTargetLabel(href)}
        onClick={keepClickOnLink}
      >
        {group.map((r, n) => markedRun(r, n))}
      </a>,
    );
  }
  return <>{out}</>;
}

function plainRun(run: Run, key: number): ReactNode {
  if (!run.marks?.length && !run.token) return run.text;
  return markedRun(run, key);
}

interface ListNode {
  ordered: boolean;
  level: number;
  items: { paragraph: Paragraph; children: ListNode[] }[];
}

type Block = { kind: "paragraph"; paragraph: Paragraph } | { kind: "list"; list: ListNode };

const isListItem = (p: Paragraph) => p.listType === "BULLET" || p.listType === "NUMBER";

/**
 * Paragraphs as blocks: plain paragraphs stand alone; list items (BULLET, NUMBER) form lists,
 * nested by `level` (an item deeper than the one before opens a list inside it), and a change of
 * list type at one level starts a new list. A text that mixes bullets and plain paragraphs keeps
 * its bullets (spec R3.7).
 */
export function blocksOf(paragraphs: Paragraph[]): Block[] {
  const blocks: Block[] = [];
  let stack: ListNode[] = [];
  const open = (level: number, ordered: boolean) => {
    const list: ListNode = { ordered, level, items: [] };
    const parent = stack.at(-1);
    const lastItem = parent?.items.at(-1);
    if (lastItem) lastItem.children.push(list);
    else blocks.push({ kind: "list", list });
    stack.push(list);
    return list;
  };
  for (const paragraph of paragraphs) {
    if (!isListItem(paragraph)) {
      stack = [];
      blocks.push({ kind: "paragraph", paragraph });
      continue;
    }
    const level = paragraph.level ?? 0;
    const ordered = paragraph.listType === "NUMBER";
    while (stack.length > 0 && (stack.at(-1) as ListNode).level > level) stack.pop();
    let list = stack.at(-1);
    if (list && list.level === level && list.ordered !== ordered) {
      stack.pop();
      list = open(level, ordered);
    } else if (!list || list.level < level) {
      list = open(level, ordered);
    }
    list.items.push({ paragraph, children: [] });
  }
  return blocks;
}

function ListView({ list, fontSizeOf }: { list: ListNode; fontSizeOf?: FontSizeOf }) {
  const first = list.items[0]?.paragraph;
  const start = list.ordered ? (first?.number ?? 1) : undefined;
  const items = list.items.map((item, index) => {
    const { paragraph } = item;
    const expected = (start ?? 1) + index;
    const value = list.ordered && paragraph.number !== undefined && paragraph.number !== expected;
    const task = paragraph.checked !== undefined;
    const content = <Runs runs={runsOf(paragraph)} />;
    return (
      <li
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        key={index}
        value={value ? paragraph.number : undefined}
        className={task ? "rt-task" : undefined}
        style={fontSizeOf?.(paragraph)}
      >
        {task ? (
          <label className="rt-task__label">
            <input type="checkbox" className="rt-task__box" checked={paragraph.checked} disabled readOnly />{" "}
            <span>{content}</span>
          </label>
        ) : (
          content
        )}
        {item.children.map((child, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <ListView key={n} list={child} fontSizeOf={fontSizeOf} />
        ))}
      </li>
    );
  });
  const hasTasks = list.items.some((item) => item.paragraph.checked !== undefined);
  const className = `rt-list${list.ordered ? " rt-list--number" : ""}${hasTasks ? " rt-list--tasks" : ""}`;
  return list.ordered ? (
    <ol className={className} start={start !== 1 ? start : undefined}>
      {items}
    </ol>
  ) : (
    <ul className={className}>{items}</ul>
  );
}

/** Per-paragraph inline style (the slide's sizes); the transcript passes none. */
type FontSizeOf = (paragraph: Paragraph) => { fontSize?: string } | undefined;

function Blocks({ paragraphs, fontSizeOf }: { paragraphs: Paragraph[]; fontSizeOf?: FontSizeOf }) {
  return (
    <>
      {blocksOf(paragraphs).map((block, index) =>
        block.kind === "paragraph" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <p key={index} style={fontSizeOf?.(block.paragraph)}>
            <Runs runs={runsOf(block.paragraph)} />
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <ListView key={index} list={block.list} fontSizeOf={fontSizeOf} />
        ),
      )}
    </>
  );
}

function cellsOf(paragraph: Paragraph): Run[][] {
  if (paragraph.cells) return paragraph.cells;
  return paragraph.text.split(" | ").map((text) => [{ text }]);
}

function TableView({ text }: { text: Text }) {
  const [head, ...body] = text.paragraphs;
  const alignOf = (column: number) => {
    const align = text.align?.[column];
    return align && align !== "none" ? { textAlign: align } : undefined;
  };
  return (
    <div className="rt-table-wrap">
      <table className="rt-table">
        {head ? (
          <thead>
            <tr>
              {cellsOf(head).map((cell, column) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns have no ids
                <th key={column} scope="col" style={alignOf(column)}>
                  <Runs runs={cell} />
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {body.map((row, rowIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no ids
            <tr key={rowIndex}>
              {cellsOf(row).map((cell, column) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns have no ids
                <td key={column} style={alignOf(column)}>
                  <Runs runs={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CodeView({ text, labelled }: { text: Text; labelled: boolean }) {
  return (
    <div className="rt-code">
      {labelled && text.language ? <span className="rt-code__lang">{text.language}</span> : null}
      <pre>
        <code className={text.language ? `language-${text.language}` : undefined}>
          {text.paragraphs.map((paragraph, line) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no ids
            <span key={line} className="rt-code__line">
              {runsOf(paragraph).map((run, n) =>
                run.token ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: runs have no ids
                  <span key={n} className={`tok ${tokenClasses(run.token)}`}>
                    {run.text}
                  </span>
                ) : (
                  run.text
                ),
              )}
              {line < text.paragraphs.length - 1 ? "\n" : null}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}

/** highlight.js classes ("title function_") as Podium's token classes ("tok-title tok-function_"). */
export function tokenClasses(token: string): string {
  return token
    .split(" ")
    .filter(Boolean)
    .map((name) => `tok-${name}`)
    .join(" ");
}

/**
 * One text of a topic, by kind: a quote, a code block, a table, or paragraphs and lists. The
 * wrapper carries the caller's classes and, for a kind, `rt-quote-text`, `rt-code-text` or
 * `rt-table-text`.
 */
export function RichText({
  text,
  className = "",
  style,
  fontSizeOf,
  codeLabel = true,
}: {
  text: Text;
  className?: string;
  style?: Record<string, string | number>;
  fontSizeOf?: FontSizeOf;
  codeLabel?: boolean;
}) {
  // The caller's classes name the style (slide__text--title, transcript__body); the kind is added.
  const classes = `${className}${text.kind ? ` rt-${text.kind}-text` : ""}`.trim();
  if (text.kind === "quote") {
    return (
      <blockquote className={classes || undefined} style={style}>
        <Blocks paragraphs={text.paragraphs} fontSizeOf={fontSizeOf} />
      </blockquote>
    );
  }
  if (text.kind === "code") {
    return (
      <div className={classes || undefined} style={style}>
        <CodeView text={text} labelled={codeLabel} />
      </div>
    );
  }
  if (text.kind === "table") {
    return (
      <div className={classes || undefined} style={style}>
        <TableView text={text} />
      </div>
    );
  }
  return (
    <div className={classes || undefined} style={style}>
      <Blocks paragraphs={text.paragraphs} fontSizeOf={fontSizeOf} />
    </div>
  );
}
