/**
 * Issue 35 (live sessions): the constants and pure rules shared by the server and the browser.
 * Numbers here are named once; the README's "Live sessions" section quotes them.
 */

/**
 * Join codes: 8 characters from 31 that can't be mistaken for each other when read off a wall
 * (no 0/O, 1/I/L). 31^8 ≈ 8.5 × 10^11 codes (issue 35 "Done when": guessing is hopeless).
 */
export const LIVE_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const LIVE_CODE_LENGTH = 8;

/** A code as typed: any case, spaces or dashes between groups are ignored. */
export function normaliseLiveCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== LIVE_CODE_LENGTH) return null;
  for (const char of code) if (!LIVE_CODE_ALPHABET.includes(char)) return null;
  return code;
}

/** The code as shown to the room: two groups of four. */
export function spacedLiveCode(code: string): string {
  return `${code.slice(0, 4)} ${code.slice(4)}`;
}

/** Issue 35 item 2: where a code is typed in (`?code=` goes on to the follow page). */
export const LIVE_JOIN_PATH = "/live/";

/** The follow page's path (issue 35 item 2). */
export function livePath(code: string): string {
  return `/live/${code}`;
}

/**
 * Issue 35 item 3: the reactions a follower may send, a small fixed set. Each is sent as its key;
 * the emoji says what it stands for, and the pages draw a picture of their own for it
 * (components/ReactionIcon.tsx: no emoji font needed).
 */
export const LIVE_REACTIONS = {
  applause: "👏",
  heart: "❤️",
  laugh: "😂",
  wow: "😮",
  thumbsUp: "👍",
} as const;
export type LiveReaction = keyof typeof LIVE_REACTIONS;

export function isLiveReaction(value: unknown): value is LiveReaction {
  return typeof value === "string" && Object.hasOwn(LIVE_REACTIONS, value);
}

/** Issue 35 item 3: questions follow the comments' input rules (editor: 1–2000 characters). */
export const LIVE_QUESTION_MAX_LENGTH = 2000;

/** A session's state as every follower sees it (the `state` event; `seq` is its id). */
export interface LiveQuestion {
  id: string;
  text: string;
  votes: number;
  answered: boolean;
  /** Only the presenter's view gets hidden questions (followers get `{ id, hidden: true }` and drop them). */
  hidden: boolean;
}

export interface LiveState {
  seq: number;
  /** 0-based. */
  step: number;
  questionsEnabled: boolean;
  ended: boolean;
  questions: LiveQuestion[];
}

/** What a follower's event stream carries (each as one SSE event of this name). */
export type LiveEvent =
  | { type: "state"; state: LiveState }
  | { type: "step"; seq: number; step: number }
  | { type: "settings"; seq: number; questionsEnabled: boolean }
  | { type: "questions"; seq: number; questions: LiveQuestion[] }
  | { type: "ended"; seq: number }
  /** Presenter views only: reactions since the last burst, by kind. */
  | { type: "reactions"; counts: Partial<Record<LiveReaction, number>> };

/** Applies an event to a follower's (or the presenter's) state; events older than the state are ignored. */
export function applyLiveEvent(state: LiveState, event: LiveEvent): LiveState {
  switch (event.type) {
    case "state":
      return event.state;
    case "step":
      return event.seq > state.seq ? { ...state, seq: event.seq, step: event.step } : state;
    case "settings":
      return event.seq > state.seq ? { ...state, seq: event.seq, questionsEnabled: event.questionsEnabled } : state;
    case "ended":
      return { ...state, seq: Math.max(state.seq, event.seq), ended: true };
    case "questions": {
      // Fresh rows from the database: applied whatever their order with other events.
      const byId = new Map(state.questions.map((question) => [question.id, question]));
      for (const question of event.questions) byId.set(question.id, question);
      return { ...state, seq: Math.max(state.seq, event.seq), questions: [...byId.values()] };
    }
    default:
      return state;
  }
}

/** Questions as the presenter and followers list them: most votes first, then the oldest. */
export function sortedQuestions(questions: readonly LiveQuestion[], withHidden: boolean): LiveQuestion[] {
  return questions
    .filter((question) => withHidden || !question.hidden)
    .sort((a, b) => b.votes - a.votes || Number(a.id) - Number(b.id));
}
