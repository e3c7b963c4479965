/**
 * The presenter view and the audience's player talk over a BroadcastChannel of the browser
 * (same origin, same browser, no server and no storage). Pure rules, shared by both windows:
 * the channel's name, the messages and their validation, and how the presenter view follows.
 *
 * - The audience's player posts `state` whenever its step changes, and answers `hello`.
 * - The presenter view posts `hello` when it opens and `go` to ask the player to move; it moves
 *   at once on its own (so it works without an audience window) and then follows the player.
 * - The player posts `bye` when its page goes away.
 *
 * Anything that isn't exactly one of these messages, with an integer step in range, is ignored.
 */

import { type AudienceMessage, type GoMessage, isStepIn } from "./channel";

export {
  type AudienceMessage,
  type GoMessage,
  type PresenterMessage,
  presenterChannelName,
  readAudienceMessage,
  readPresenterMessage,
} from "./channel";

/** What the presenter view shows: its step, whether a player answers, the last request sent. */
export interface PresenterSyncState {
  step: number;
  total: number;
  /** A player has spoken since the presenter view opened (and hasn't said bye). */
  connected: boolean;
  /** The sequence number of the last `go` sent (0: none yet). */
  seq: number;
}

export function initialPresenterState(total: number, step = 0): PresenterSyncState {
  return { step: isStepIn(step, total) ? step : 0, total, connected: false, seq: 0 };
}

/**
 * The presenter asks for a step: it moves at once and sends `go` (null when the step is out of
 * range or already shown: nothing to send).
 */
export function requestStep(
  state: PresenterSyncState,
  step: number,
): { state: PresenterSyncState; message: GoMessage } | null {
  if (!isStepIn(step, state.total) || step === state.step) return null;
  const seq = state.seq + 1;
  return { state: { ...state, step, seq }, message: { type: "go", step, seq } };
}

/**
 * The presenter follows the player. An answer to an older request is stale (the presenter has
 * asked for more since, e.g. two quick presses) and only marks the player as connected; the
 * player's own moves (no replyTo) and the answer to the latest request are followed.
 */
export function receiveAudienceMessage(state: PresenterSyncState, message: AudienceMessage): PresenterSyncState {
  if (message.type === "bye") return { ...state, connected: false };
  if (message.replyTo !== undefined && message.replyTo < state.seq) return { ...state, connected: true };
  return { ...state, step: message.step, connected: true };
}

/** The presenter view is offered when the deck has notes, or always to the deck's editors. */
export function presenterOffered(topics: readonly TopicWithNotes[], canEdit: boolean): boolean {
  return canEdit || hasNotes(topics);
}

interface TopicWithNotes {
  notes?: string | undefined;
  topics: readonly TopicWithNotes[];
}

function hasNotes(topics: readonly TopicWithNotes[]): boolean {
  return topics.some((topic) => (topic.notes?.trim() ?? "") !== "" || hasNotes(topic.topics));
}

/** Speaker notes as paragraphs: separated by blank lines; single line breaks stay inside one. */
export function notesParagraphs(notes: string | undefined): string[] {
  if (!notes) return [];
  return notes
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
}
