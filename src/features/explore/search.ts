/** Search terms: words only, each a prefix ("sourd" finds "sourdough"); at most 8 words. */
export const SEARCH_MAX_WORDS = 8;
export const SEARCH_MAX_LENGTH = 200;

/** The tsquery for a visitor's search, or null when it has no words. Never passes operators through. */
export function tsqueryOf(term: string): string | null {
  const words = term
    .slice(0, SEARCH_MAX_LENGTH)
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words
    .slice(0, SEARCH_MAX_WORDS)
    .map((word) => `${word}:*`)
    .join(" & ");
}

/** Spec §5, §2: Enter submits; an empty term goes to /explore/; the term is URL-encoded. */
export function searchUrl(term: string): string {
  const trimmed = term.trim();
  return trimmed ? `/explore/search/?search=${encodeURIComponent(trimmed)}` : "/explore/";
}

/** Spec §3 App data: the four author segments; anything else counts as other. */
export const AUTHOR_SEGMENTS = ["sales-marketing", "teacher", "student", "other"] as const;
export type AuthorSegment = (typeof AUTHOR_SEGMENTS)[number];

export function authorSegmentOf(value: unknown): AuthorSegment {
  return (AUTHOR_SEGMENTS as readonly unknown[]).includes(value) ? (value as AuthorSegment) : "other";
}

/** Trending searches per author segment (spec §3 searchTerms): what people look for on Podium. */
export const SEARCH_TERMS: Record<AuthorSegment, string[]> = {
  "sales-marketing": ["pricing", "quarterly review", "product launch", "pitch deck"],
  teacher: ["fractions", "water cycle", "study techniques", "lesson plan"],
  student: ["vaccines", "mars", "printing press", "apollo"],
  other: ["sourdough", "typography", "accessibility", "personal finance"],
};
