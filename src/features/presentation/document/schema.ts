import { z } from "zod";

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

export const paragraphSchema = z.strictObject({
  text: z.string().max(DOCUMENT_LIMITS.maxParagraphLength),
  listType: z.enum(["BULLET", "NONE"]),
  biggestFontSize: z.number().finite().positive().max(1000),
});

export const textSchema = z.strictObject({
  id,
  styleClasses: z.array(z.enum(STYLE_CLASSES)).min(1).max(5),
  paragraphs: z.array(paragraphSchema).max(DOCUMENT_LIMITS.maxParagraphsPerText),
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
  }),
);

export const presentationDocumentSchema = z
  .strictObject({
    format: z.literal("podium.presentation"),
    version: z.literal(1),
    schemaVersion: z.enum(["0", "2"]),
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

/** Every topic of the document, depth-first, with its nesting depth (1 = top level). */
export function* walkTopics(topics: Topic[], depth = 1): Generator<{ topic: Topic; depth: number }> {
  for (const topic of topics) {
    yield { topic, depth };
    yield* walkTopics(topic.topics, depth + 1);
  }
}
