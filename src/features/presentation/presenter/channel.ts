/**
 * The presenter view's channel and messages (see sync.ts): the small part the audience's
 * player needs before anyone presses Present, kept apart so the view page's bundle stays small.
 */
/** One channel per presentation: two decks presented at once don't steer each other. */
export function presenterChannelName(oid: string): string {
  return `podium-present:${oid}`;
}

export type AudienceMessage =
  /** The player's step; `replyTo` is the `go` it answers, if any. */
  { type: "state"; step: number; total: number; replyTo?: number } | { type: "bye" };

/** The presenter's request to move the player to a step; `seq` numbers its requests. */
export type GoMessage = { type: "go"; step: number; seq: number };
export type PresenterMessage = { type: "hello" } | GoMessage;

/** Steps are path indexes: 0 ≤ step < total. */
export function isStepIn(step: unknown, total: number): step is number {
  return typeof step === "number" && Number.isInteger(step) && step >= 0 && step < total;
}

function isSeq(seq: unknown): seq is number {
  return typeof seq === "number" && Number.isSafeInteger(seq) && seq >= 0;
}

function isRecord(data: unknown): data is Record<string, unknown> {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}

/** A message the presenter view accepts from the player, or null. `total` is the presenter's own step count. */
export function readAudienceMessage(data: unknown, total: number): AudienceMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === "bye") return { type: "bye" };
  if (data.type !== "state" || !isStepIn(data.step, total)) return null;
  if (data.replyTo !== undefined && !isSeq(data.replyTo)) return null;
  return {
    type: "state",
    step: data.step,
    total,
    ...(data.replyTo !== undefined ? { replyTo: data.replyTo } : {}),
  };
}

/** A message the player accepts from a presenter view, or null. `total` is the player's own step count. */
export function readPresenterMessage(data: unknown, total: number): PresenterMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === "hello") return { type: "hello" };
  if (data.type === "go" && isStepIn(data.step, total) && isSeq(data.seq))
    return { type: "go", step: data.step, seq: data.seq };
  return null;
}
