import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { Database, Queryable } from "../../db/client";
import { pageShapeOf, posterTopicOf } from "../../document/page-shape";
import { normaliseComment } from "../editor/service";
import { findPresentationByOid, type PresentationRow } from "../presentation/repository";
import { ownerDataOf, presenterAccess } from "../presentation/service";
import { renderThumbnailSvg } from "../presentation/thumbnail";
import { thumbnailImages } from "../presentation/thumbnail-images";
import type { Viewer } from "../viewer";
import type { LiveHub } from "./hub";
import type { FollowPageData, PresenterLiveData } from "./page-data";
import {
  addVote,
  endSession,
  findOpenSession,
  findOpenSessionByOid,
  findSessionByCode,
  insertQuestion,
  insertSession,
  type LiveSessionRow,
  listQuestions,
  nextSeq,
  questionCounts,
  questionsById,
  setQuestionsEnabled,
  setSessionStep,
  updateQuestion,
} from "./repository";
import {
  LIVE_CODE_ALPHABET,
  LIVE_CODE_LENGTH,
  LIVE_QUESTION_MAX_LENGTH,
  LIVE_REACTIONS,
  type LiveReaction,
  type LiveState,
  livePath,
  spacedLiveCode,
} from "./rules";

/** Issue 35: a session holds at most this many questions (a hall's worth; bounds the state every follower gets). */
export const LIVE_MAX_QUESTIONS = 300;
/** Questions are sent to followers in batches this often (votes come in bursts). */
export const LIVE_QUESTION_FLUSH_MS = 500;

/** A live code from crypto.randomInt: 31^8 ≈ 8.5 × 10^11 of them. */
export function newLiveCode(): string {
  let code = "";
  for (let i = 0; i < LIVE_CODE_LENGTH; i++) code += LIVE_CODE_ALPHABET[randomInt(LIVE_CODE_ALPHABET.length)];
  return code;
}

export class LiveError extends Error {
  override readonly name = "LiveError";
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 429,
    message: string,
  ) {
    super(message);
  }
}

/** The follower cookie (issue 35): a random id, signed for one session. HttpOnly, path /live/{code}/. */
export const FOLLOWER_COOKIE = "podium_live";
const FOLLOWER_ID = /^[A-Za-z0-9_-]{16}$/;

export function newFollowerId(): string {
  return randomBytes(12).toString("base64url");
}

export function followerCookieValue(secret: string, sessionId: string, followerId: string): string {
  return `${followerId}.${followerSignature(secret, sessionId, followerId)}`;
}

function followerSignature(secret: string, sessionId: string, followerId: string): string {
  return createHmac("sha256", secret).update(`live-follower:${sessionId}:${followerId}`).digest("base64url");
}

/** The follower id a cookie proves for this session, or null. */
export function followerOf(secret: string, sessionId: string, cookie: string | undefined): string | null {
  if (!cookie) return null;
  const [id, signature] = cookie.split(".");
  if (!id || !signature || !FOLLOWER_ID.test(id)) return null;
  const expected = Buffer.from(followerSignature(secret, sessionId, id));
  const sent = Buffer.from(signature);
  return expected.length === sent.length && timingSafeEqual(expected, sent) ? id : null;
}

/** The state every process's hub reads when it first serves a session. */
export async function loadLiveState(db: Queryable, sessionId: string): Promise<LiveState | null> {
  const rows = await db.query<LiveSessionRow>(
    `select s.id::text as id, s.current_step as "currentStep", s.seq::int as seq, s.ended_at as "endedAt",
            s.questions_enabled as "questionsEnabled"
       from live_sessions s where s.id = $1`,
    [sessionId],
  );
  const session = rows[0];
  if (!session) return null;
  return {
    seq: session.seq,
    step: session.currentStep,
    questionsEnabled: session.questionsEnabled,
    ended: session.endedAt !== null,
    questions: await listQuestions(db, sessionId),
  };
}

function stateOf(session: LiveSessionRow, questions: LiveState["questions"]): LiveState {
  return {
    seq: session.seq,
    step: session.currentStep,
    questionsEnabled: session.questionsEnabled,
    ended: session.endedAt !== null,
    questions,
  };
}

/** What the presenter view shows of its session. */
async function presenterLiveData(
  db: Queryable,
  session: LiveSessionRow,
  publicUrl: string,
): Promise<PresenterLiveData> {
  const joinUrl = `${publicUrl}${livePath(session.code)}`;
  return {
    code: session.code,
    spacedCode: spacedLiveCode(session.code),
    joinUrl,
    qrSvg: await qrSvgOf(joinUrl),
    state: stateOf(session, await listQuestions(db, session.id)),
  };
}

/** The join address as a QR code (SVG drawn on the server; `qrcode`, issue 35 item 1). */
async function qrSvgOf(url: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(url, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#000000", light: "#ffffff" },
  });
}

/** The deck behind the presenter view, for someone who may present it live: its owner or an editor. */
async function presentableDeck(db: Queryable, viewer: Viewer, oid: string): Promise<PresentationRow> {
  const found = await presenterAccess(db, { oid }, viewer);
  if (!found) throw new LiveError(404, "No such presentation.");
  if (!viewer || !found.mayPresent) throw new LiveError(403, "Only the owner or an editor can present this live.");
  return found.row;
}

/** The presenter view's live session, if one is running. */
export async function openSessionFor(db: Queryable, oid: string, publicUrl: string): Promise<PresenterLiveData | null> {
  const session = await findOpenSessionByOid(db, oid);
  return session ? presenterLiveData(db, session, publicUrl) : null;
}

/** Issue 35 item 1: Go live. The deck's open session, or a new one at the presenter's step. */
export async function goLive(
  db: Database,
  viewer: Viewer,
  oid: string,
  step: number,
  publicUrl: string,
): Promise<PresenterLiveData> {
  const row = await presentableDeck(db, viewer, oid);
  if (!viewer) throw new LiveError(403, "Sign in to go live.");
  const startStep = Number.isInteger(step) && step >= 0 && step < row.document.path.length ? step : 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const open = await findOpenSession(db, row.id);
    if (open) return presenterLiveData(db, open, publicUrl);
    // A taken code (or a session another request opened a moment ago) is a conflict: look and draw again.
    if (
      await insertSession(db, {
        presentationId: row.id,
        code: newLiveCode(),
        startedBy: viewer.userId,
        step: startStep,
      })
    ) {
      const created = await findOpenSession(db, row.id);
      if (created) return presenterLiveData(db, created, publicUrl);
    }
  }
  throw new LiveError(409, "Could not start a live session. Try again.");
}

/** A session by its code and the deck it shows, for its presenter (owner or editor). */
async function presenterSession(db: Queryable, viewer: Viewer, code: string): Promise<LiveSessionRow> {
  return (await presenterSessionAndDeck(db, viewer, code)).session;
}

async function presenterSessionAndDeck(
  db: Queryable,
  viewer: Viewer,
  code: string,
): Promise<{ session: LiveSessionRow; row: PresentationRow }> {
  const session = await findSessionByCode(db, code);
  if (!session) throw new LiveError(404, "No such live session.");
  return { session, row: await presentableDeck(db, viewer, session.oid) };
}

/** May this viewer watch the session's presenter stream (reactions, hidden questions)? */
export async function mayPresentSession(db: Queryable, viewer: Viewer, session: LiveSessionRow): Promise<boolean> {
  if (!viewer) return false;
  const found = await presenterAccess(db, { oid: session.oid }, viewer);
  return found?.mayPresent === true;
}

/**
 * Issue 35: the presenter moves the step about once a second; who may do it is looked up once and
 * kept this long per (code, person), so a change is one statement. A right taken away mid-session
 * stops working within this time; ending the session stops it at once (the update finds no open session).
 */
export const PRESENTER_GRANT_TTL_MS = 10_000;
/** Grants kept at most (presenters at once in a process); the oldest go first. */
const PRESENTER_GRANTS_KEPT = 1000;

export function createStepMover(db: Database, hub: LiveHub, now: () => number = Date.now) {
  const grants = new Map<string, { sessionId: string; steps: number; until: number }>();
  return async (viewer: Viewer, code: string, step: number): Promise<void> => {
    const key = `${code}:${viewer?.userId ?? ""}`;
    let grant = grants.get(key);
    if (!grant || grant.until <= now()) {
      const { session, row } = await presenterSessionAndDeck(db, viewer, code);
      grant = { sessionId: session.id, steps: row.document.path.length, until: now() + PRESENTER_GRANT_TTL_MS };
      grants.delete(key);
      if (grants.size >= PRESENTER_GRANTS_KEPT) grants.delete(grants.keys().next().value ?? "");
      grants.set(key, grant);
    }
    if (!Number.isInteger(step) || step < 0 || step >= grant.steps) {
      throw new LiveError(400, "That step is not in the presentation.");
    }
    const seq = await setSessionStep(db, grant.sessionId, step);
    if (seq === null) throw new LiveError(409, "This live session has ended.");
    hub.publish(grant.sessionId, { type: "step", seq, step });
  };
}

export async function toggleQuestions(
  db: Database,
  hub: LiveHub,
  viewer: Viewer,
  code: string,
  enabled: boolean,
): Promise<void> {
  const session = await presenterSession(db, viewer, code);
  const seq = await setQuestionsEnabled(db, session.id, enabled);
  if (seq === null) throw new LiveError(409, "This live session has ended.");
  hub.publish(session.id, { type: "settings", seq, questionsEnabled: enabled });
}

export async function endLive(db: Database, hub: LiveHub, viewer: Viewer, code: string): Promise<void> {
  const session = await presenterSession(db, viewer, code);
  const seq = await endSession(db, session.id);
  // Ended already: nothing to say again.
  if (seq !== null) hub.publish(session.id, { type: "ended", seq });
}

/**
 * Question changes are sent in batches (a vote burst is one event): the ids changed since the last
 * batch, per session, read fresh and numbered once.
 */
export function createQuestionBroadcaster(db: Queryable, hub: LiveHub, flushMs = LIVE_QUESTION_FLUSH_MS) {
  const changed = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    const batches = [...changed];
    changed.clear();
    for (const [sessionId, ids] of batches) {
      const questions = await questionsById(db, sessionId, [...ids]);
      const seq = await nextSeq(db, sessionId);
      if (seq !== null) hub.publish(sessionId, { type: "questions", seq, questions });
    }
  };
  return {
    changed(sessionId: string, questionId: string) {
      const ids = changed.get(sessionId) ?? new Set();
      ids.add(questionId);
      changed.set(sessionId, ids);
      if (!timer) {
        timer = setTimeout(() => void flush().catch(() => {}), flushMs);
        timer.unref();
      }
    },
    /** Sends what is waiting now (tests; before the server stops). */
    flush: async () => {
      if (timer) clearTimeout(timer);
      await flush();
    },
  };
}
export type QuestionBroadcaster = ReturnType<typeof createQuestionBroadcaster>;

export async function markQuestion(
  db: Database,
  broadcaster: QuestionBroadcaster,
  viewer: Viewer,
  code: string,
  questionId: string,
  change: { answered?: boolean; hidden?: boolean },
): Promise<void> {
  const session = await presenterSession(db, viewer, code);
  if (!/^\d{1,18}$/.test(questionId) || !(await updateQuestion(db, session.id, questionId, change))) {
    throw new LiveError(404, "No such question.");
  }
  broadcaster.changed(session.id, questionId);
}

/** An open session by code, for a follower's request. */
export async function openSessionByCode(db: Queryable, code: string): Promise<LiveSessionRow> {
  const session = await findSessionByCode(db, code);
  if (!session || session.endedAt) throw new LiveError(404, "This live session has ended or never existed.");
  return session;
}

/** A question's text by the comments' rules (1–2000 characters once trimmed, CRLF as LF), or a 400. */
export function questionText(raw: unknown): string {
  if (typeof raw !== "string") throw new LiveError(400, "Write a question first.");
  const text = normaliseComment(raw);
  const length = [...text].length;
  if (length === 0) throw new LiveError(400, "Write a question first.");
  if (length > LIVE_QUESTION_MAX_LENGTH) {
    throw new LiveError(400, `A question can be at most ${LIVE_QUESTION_MAX_LENGTH} characters long.`);
  }
  return text;
}

/** Issue 35 item 3: a follower's question (the comments' rules: 1–2000 characters, line breaks kept). */
export async function askQuestion(
  db: Database,
  broadcaster: QuestionBroadcaster,
  session: LiveSessionRow,
  followerId: string,
  rawText: string,
): Promise<void> {
  if (!session.questionsEnabled) throw new LiveError(409, "Questions are turned off for this session.");
  const text = questionText(rawText);
  const counts = await questionCounts(db, session.id, followerId);
  if (counts.total >= LIVE_MAX_QUESTIONS) throw new LiveError(409, "This session takes no more questions.");
  const id = await insertQuestion(db, { sessionId: session.id, followerId, text });
  broadcaster.changed(session.id, id);
}

export async function voteQuestion(
  db: Database,
  broadcaster: QuestionBroadcaster,
  session: LiveSessionRow,
  followerId: string,
  questionId: string,
): Promise<"counted" | "again"> {
  if (!/^\d{1,18}$/.test(questionId)) throw new LiveError(404, "No such question.");
  const result = await addVote(db, { sessionId: session.id, questionId, followerId });
  if (result === "unknown") throw new LiveError(404, "No such question.");
  if (result === "counted") broadcaster.changed(session.id, questionId);
  return result;
}

export function react(hub: LiveHub, session: LiveSessionRow, reaction: LiveReaction): void {
  hub.react(session.id, reaction);
}

/** The deck a session shows, for its followers (the code is the grant: any privacy, while it runs). */
export async function sessionDeck(db: Queryable, session: LiveSessionRow): Promise<PresentationRow> {
  const row = await findPresentationByOid(db, session.oid);
  if (!row || row.hidden) throw new LiveError(404, "This live session has ended or never existed.");
  return row;
}

/** The follow page's data (issue 35 item 2). */
export async function followPageData(db: Queryable, session: LiveSessionRow): Promise<FollowPageData> {
  const row = await sessionDeck(db, session);
  const base = `${livePath(session.code)}/`;
  return {
    code: session.code,
    spacedCode: spacedLiveCode(session.code),
    oid: row.oid,
    title: row.title,
    owner: ownerDataOf(row),
    lastModified: row.lastModified.toISOString(),
    schemaVersion: row.schemaVersion,
    documentUrl: `${base}document.json`,
    previewUrl: `${base}thumbnail.svg`,
    stepCount: row.document.path.length,
    ...pageShapeOf(row.document),
    state: { ...stateOf(session, []), questions: (await listQuestions(db, session.id)).filter((q) => !q.hidden) },
    reactions: Object.keys(LIVE_REACTIONS) as LiveReaction[],
  };
}

/** The session's poster for its followers (the deck's thumbnail, drawn as /p/{oid}/thumbnail.svg is). */
export async function sessionThumbnail(db: Queryable, session: LiveSessionRow): Promise<string> {
  const row = await sessionDeck(db, session);
  const topic = posterTopicOf(row.document);
  return renderThumbnailSvg({
    title: row.title,
    theme: row.document.theme,
    topic,
    images: await thumbnailImages(db, topic),
  });
}
