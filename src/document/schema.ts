import { z } from "zod";
import { isSafeHref } from "./safe-link";

/**
 * Podium's native presentation document (product brief, "What a presentation is"):
 * a zoomable canvas of topics (frames) holding texts and images, and a path of steps.
 * Texts and paragraphs have exactly the shapes of the spec's transcript entity (§3).
 */

/** Spec §3 Transcript: the style classes a text can carry. */
export const STYLE_CLASSES = ["title", "subtitle", "subtitle_2", "body", "body_2"] as const;
export type StyleClass = (typeof STYLE_CLASSES)[number];

/** Bounds that keep a hostile document from exhausting memory or the renderer. */
export const DOCUMENT_LIMITS = {
  maxTopics: 2_000,
  maxDepth: 12,
  maxTextsPerTopic: 200,
  maxParagraphsPerText: 500,
  maxParagraphLength: 10_000,
  maxPathSteps: 2_000,
  maxCoordinate: 10_000_000,
} as const;

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "ids use letters, digits, '-' and '_'");
const coordinate = z.number().finite().min(-DOCUMENT_LIMITS.maxCoordinate).max(DOCUMENT_LIMITS.maxCoordinate);
const length = z.number().finite().positive().max(DOCUMENT_LIMITS.maxCoordinate);
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "colours are #rrggbb");

/** The document versions Podium has written; stored documents are upgraded to the last one. */
export const DOCUMENT_VERSION = 2;

/** Inline marks a run of text can carry (document version 2). */
export const MARKS = ["strong", "em", "strike", "code"] as const;
export type Mark = (typeof MARKS)[number];

/** Links go to the web or to an email address, nowhere else (the one rule: ./safe-link.ts). */
export const isSafeLink = isSafeHref;

/**
 * A run of a paragraph's text with the marks it carries. The runs of a paragraph, joined, are
 * its `text`: the transcript entity (plain text) stays derivable from rich text.
 */
export const runSchema = z.strictObject({
  text: z.string().max(DOCUMENT_LIMITS.maxParagraphLength),
  marks: z.array(z.enum(MARKS)).max(MARKS.length).optional(),
  /** A link's target: http(s) or mailto only. */
  href: z.string().max(2048).refine(isSafeLink, "links may only go to http(s) or mailto addresses").optional(),
  /** A code token's highlight class (highlight.js names: "keyword", "string", "title function_"). */
  token: z
    .string()
    .max(64)
    .regex(/^[a-z_][a-z0-9_-]*( [a-z_][a-z0-9_-]*)*$/, "token classes are lowercase words")
    .optional(),
});

export const paragraphSchema = z
  .strictObject({
    text: z.string().max(DOCUMENT_LIMITS.maxParagraphLength),
    /** Spec §3: BULLET or another type; NUMBER is an ordered list's item (version 2). */
    listType: z.enum(["BULLET", "NUMBER", "NONE"]),
    biggestFontSize: z.number().finite().positive().max(1000),
    /** Rich text; absent means one unmarked run of `text`. */
    runs: z.array(runSchema).max(2_000).optional(),
    /** A list item's nesting, 0 for the outermost list. */
    level: z.number().int().min(0).max(8).optional(),
    /** An ordered item's number (lists can start anywhere). */
    number: z.number().int().min(0).max(999_999_999).optional(),
    /** A task item: done or not. */
    checked: z.boolean().optional(),
    /** A table row's cells (texts of kind "table"); `text` is the cells joined by " | ". */
    cells: z.array(z.array(runSchema).max(500)).max(64).optional(),
  })
  .superRefine((paragraph, ctx) => {
    if (paragraph.runs && paragraph.runs.map((run) => run.text).join("") !== paragraph.text) {
      ctx.addIssue({ code: "custom", path: ["runs"], message: "the runs must spell the paragraph's text" });
    }
  });

/** What a text is beyond paragraphs (version 2); absent for ordinary text. */
export const TEXT_KINDS = ["quote", "code", "table"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

export const textSchema = z.strictObject({
  id,
  styleClasses: z.array(z.enum(STYLE_CLASSES)).min(1).max(5),
  paragraphs: z.array(paragraphSchema).max(DOCUMENT_LIMITS.maxParagraphsPerText),
  kind: z.enum(TEXT_KINDS).optional(),
  /** A code block's language as written after the fence ("ts", "python"). */
  language: z
    .string()
    .max(32)
    .regex(/^[A-Za-z0-9_+#.-]*$/, "a language is a short name")
    .optional(),
  /** A table's column alignments. */
  align: z
    .array(z.enum(["left", "center", "right", "none"]))
    .max(64)
    .optional(),
});

export const imageSchema = z.strictObject({
  id,
  /** A Podium asset path (same origin), never a remote URL. */
  src: z.string().regex(/^\/assets\/[A-Za-z0-9._/-]+$/, "images must be Podium assets (/assets/…)"),
  alt: z.string().max(1000),
  x: coordinate,
  y: coordinate,
  width: length,
  height: length,
});

/**
 * How a topic is drawn: "flow" (default) lays its texts out as a slide; "page" is a rendered
 * page (an imported PDF): its images are the page, and its texts are the page's text layer,
 * read by the transcript, search and screen readers but not drawn over the image.
 */
export const TOPIC_LAYOUTS = ["flow", "page"] as const;

/** Speaker notes of one topic, in characters. */
export const NOTES_MAX_LENGTH = 20_000;

export interface Topic {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  background: { color: string } | null;
  texts: z.infer<typeof textSchema>[];
  images: z.infer<typeof imageSchema>[];
  topics: Topic[];
  /** Speaker notes: plain text, paragraphs separated by blank lines (version 2). */
  notes?: string | undefined;
  layout?: (typeof TOPIC_LAYOUTS)[number] | undefined;
}

export const topicSchema: z.ZodType<Topic> = z.lazy(() =>
  z.strictObject({
    id,
    x: coordinate,
    y: coordinate,
    width: length,
    height: length,
    rotation: z.number().finite().min(-360).max(360),
    background: z.strictObject({ color: colour }).nullable(),
    texts: z.array(textSchema).max(DOCUMENT_LIMITS.maxTextsPerTopic),
    images: z.array(imageSchema).max(100),
    topics: z.array(topicSchema),
    notes: z.string().max(NOTES_MAX_LENGTH).optional(),
    layout: z.enum(TOPIC_LAYOUTS).optional(),
  }),
);

/** Slide themes chosen per presentation (version 2); absent means light. */
export const THEMES = ["light", "dark", "contrast"] as const;
export type Theme = (typeof THEMES)[number];

export const presentationDocumentSchema = z
  .strictObject({
    format: z.literal("podium.presentation"),
    /** Version 1 documents are read as version 2 (every field version 2 added is optional). */
    version: z.union([z.literal(1), z.literal(2)]).transform(() => DOCUMENT_VERSION),
    schemaVersion: z.enum(["0", "2"]),
    theme: z.enum(THEMES).optional(),
    topics: z.array(topicSchema).min(1),
    path: z.array(id).min(1).max(DOCUMENT_LIMITS.maxPathSteps),
  })
  .superRefine((doc, ctx) => {
    const ids = new Set<string>();
    let count = 0;
    const visit = (topics: Topic[], depth: number, at: (string | number)[]) => {
      topics.forEach((topic, index) => {
        const here = [...at, index];
        count += 1;
        if (depth > DOCUMENT_LIMITS.maxDepth) {
          ctx.addIssue({ code: "custom", path: here, message: `topics nest at most ${DOCUMENT_LIMITS.maxDepth} deep` });
        }
        if (ids.has(topic.id)) {
          ctx.addIssue({ code: "custom", path: [...here, "id"], message: `duplicate topic id "${topic.id}"` });
        }
        ids.add(topic.id);
        visit(topic.topics, depth + 1, [...here, "topics"]);
      });
    };
    visit(doc.topics, 1, ["topics"]);
    if (count > DOCUMENT_LIMITS.maxTopics) {
      ctx.addIssue({ code: "custom", path: ["topics"], message: `at most ${DOCUMENT_LIMITS.maxTopics} topics` });
    }
    doc.path.forEach((step, index) => {
      if (!ids.has(step)) {
        ctx.addIssue({ code: "custom", path: ["path", index], message: `step "${step}" names no topic` });
      }
    });
  });

export type Run = z.infer<typeof runSchema>;
export type Paragraph = z.infer<typeof paragraphSchema>;
export type Text = z.infer<typeof textSchema>;
export type Image = z.infer<typeof imageSchema>;
export type PresentationDocument = z.infer<typeof presentationDocumentSchema>;

export class InvalidDocumentError extends Error {
  override readonly name = "InvalidDocumentError";
  constructor(
    /** Where the first problem is, as a dotted path ("topics.0.texts.1.paragraphs"). */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`Invalid presentation document: ${field || "(document)"}: ${problem}`);
  }
}

/** Validates unknown input as a document, or throws naming the first invalid field. */
export function parseDocument(input: unknown): PresentationDocument {
  const result = presentationDocumentSchema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new InvalidDocumentError(first?.path.join(".") ?? "", first?.message ?? "invalid");
}

/**
 * A deck of rendered pages (an imported PDF): its slides are page images with a text layer, so
 * Markdown can't say them; the editor keeps its slides as they are.
 */
export function isPageDeck(document: PresentationDocument): boolean {
  for (const { topic } of walkTopics(document.topics)) if (topic.layout === "page") return true;
  return false;
}

/** Every topic of the document, depth-first, with its nesting depth (1 = top level). */
export function* walkTopics(topics: Topic[], depth = 1): Generator<{ topic: Topic; depth: number }> {
  for (const topic of topics) {
    yield { topic, depth };
    yield* walkTopics(topic.topics, depth + 1);
  }
}

/**
 * Every topic of the document by id (a path step names one). Generic over the topic's shape, so
 * a test reading the served document.json uses it too (issue 31: eight places wrote this walk).
 */
export function topicsById<T extends { id: string; topics: T[] }>(document: { topics: T[] }): Map<string, T> {
  const byId = new Map<string, T>();
  const visit = (topics: T[]) => {
    for (const topic of topics) {
      byId.set(topic.id, topic);
      visit(topic.topics);
    }
  };
  visit(document.topics);
  return byId;
}
