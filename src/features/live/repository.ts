import type { Queryable } from "../../db/client";
import type { LiveQuestion } from "./rules";

/** Issue 35: live sessions, their questions and votes (migration 0026). The only SQL of the feature. */

export interface LiveSessionRow {
  id: string;
  presentationId: string;
  oid: string;
  code: string;
  startedAt: Date;
  endedAt: Date | null;
  currentStep: number;
  seq: number;
  questionsEnabled: boolean;
}

const SESSION_COLUMNS = `s.id::text as id, s.presentation_id::text as "presentationId", p.oid, s.code,
  s.started_at as "startedAt", s.ended_at as "endedAt", s.current_step as "currentStep", s.seq::int as seq,
  s.questions_enabled as "questionsEnabled"`;

/** The session (with its deck's oid and title) that `where` picks, over live_sessions s join presentations p. */
async function findSession(db: Queryable, where: string, params: unknown[]): Promise<LiveSessionRow | null> {
  const rows = await db.query<LiveSessionRow>(
    `select ${SESSION_COLUMNS} from live_sessions s join presentations p on p.id = s.presentation_id where ${where}`,
    params,
  );
  return rows[0] ?? null;
}

export const findSessionByCode = (db: Queryable, code: string) => findSession(db, "s.code = $1", [code]);

export const findOpenSession = (db: Queryable, presentationId: string) =>
  findSession(db, "s.presentation_id = $1 and s.ended_at is null", [presentationId]);

export const findOpenSessionByOid = (db: Queryable, oid: string) =>
  findSession(db, "p.oid = $1 and s.ended_at is null", [oid]);

/** A new open session, or null when the code was taken (the caller draws another). */
export async function insertSession(
  db: Queryable,
  session: { presentationId: string; code: string; startedBy: string; step: number },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `insert into live_sessions (presentation_id, code, started_by, current_step) values ($1, $2, $3, $4)
     on conflict do nothing returning id::text as id`,
    [session.presentationId, session.code, session.startedBy, session.step],
  );
  return rows.length > 0;
}

/** Moves an open session's step; the new seq, or null when it has ended. */
export async function setSessionStep(db: Queryable, sessionId: string, step: number): Promise<number | null> {
  const rows = await db.query<{ seq: number }>(
    `update live_sessions set current_step = $2, seq = seq + 1 where id = $1 and ended_at is null returning seq::int as seq`,
    [sessionId, step],
  );
  return rows[0]?.seq ?? null;
}

export async function setQuestionsEnabled(db: Queryable, sessionId: string, enabled: boolean): Promise<number | null> {
  const rows = await db.query<{ seq: number }>(
    `update live_sessions set questions_enabled = $2, seq = seq + 1 where id = $1 and ended_at is null
     returning seq::int as seq`,
    [sessionId, enabled],
  );
  return rows[0]?.seq ?? null;
}

/** Ends a session; its seq, or null when it had already ended. */
export async function endSession(db: Queryable, sessionId: string): Promise<number | null> {
  const rows = await db.query<{ seq: number }>(
    `update live_sessions set ended_at = now(), seq = seq + 1 where id = $1 and ended_at is null returning seq::int as seq`,
    [sessionId],
  );
  return rows[0]?.seq ?? null;
}

/** Numbers an event that isn't a column's change (questions changed): the new seq. */
export async function nextSeq(db: Queryable, sessionId: string): Promise<number | null> {
  const rows = await db.query<{ seq: number }>(
    "update live_sessions set seq = seq + 1 where id = $1 returning seq::int as seq",
    [sessionId],
  );
  return rows[0]?.seq ?? null;
}

const QUESTION_COLUMNS = "id::text as id, text, votes, answered, hidden";

export async function listQuestions(db: Queryable, sessionId: string): Promise<LiveQuestion[]> {
  return db.query<LiveQuestion>(`select ${QUESTION_COLUMNS} from live_questions where session_id = $1 order by id`, [
    sessionId,
  ]);
}

export async function questionsById(db: Queryable, sessionId: string, ids: readonly string[]): Promise<LiveQuestion[]> {
  return db.query<LiveQuestion>(
    `select ${QUESTION_COLUMNS} from live_questions where session_id = $1 and id = any($2::bigint[]) order by id`,
    [sessionId, ids],
  );
}

/** How many questions the session holds, and how many this follower asked. */
export async function questionCounts(
  db: Queryable,
  sessionId: string,
  followerId: string,
): Promise<{ total: number; mine: number }> {
  const rows = await db.query<{ total: number; mine: number }>(
    `select count(*)::int as total, count(*) filter (where follower_id = $2)::int as mine
       from live_questions where session_id = $1`,
    [sessionId, followerId],
  );
  return rows[0] ?? { total: 0, mine: 0 };
}

export async function insertQuestion(
  db: Queryable,
  question: { sessionId: string; followerId: string; text: string },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    "insert into live_questions (session_id, follower_id, text) values ($1, $2, $3) returning id::text as id",
    [question.sessionId, question.followerId, question.text],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("the question was not stored");
  return id;
}

/** One vote per follower: true when this one counted (a visible question of the session, not voted before). */
export async function addVote(
  db: Queryable,
  vote: { sessionId: string; questionId: string; followerId: string },
): Promise<"counted" | "again" | "unknown"> {
  const rows = await db.query<{ counted: boolean }>(
    `with question as (
       select id from live_questions where id = $2 and session_id = $1 and not hidden
     ), vote as (
       insert into live_question_votes (question_id, follower_id)
       select id, $3 from question on conflict do nothing returning question_id
     ), counted as (
       update live_questions set votes = votes + 1 where id in (select question_id from vote) returning id
     )
     select exists (select 1 from counted) as counted from question`,
    [vote.sessionId, vote.questionId, vote.followerId],
  );
  const row = rows[0];
  if (!row) return "unknown";
  return row.counted ? "counted" : "again";
}

/** The presenter marks a question answered or hides it; false when the session holds no such question. */
export async function updateQuestion(
  db: Queryable,
  sessionId: string,
  questionId: string,
  change: { answered?: boolean; hidden?: boolean },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update live_questions set answered = coalesce($3, answered), hidden = coalesce($4, hidden)
      where id = $2 and session_id = $1 returning id::text as id`,
    [sessionId, questionId, change.answered ?? null, change.hidden ?? null],
  );
  return rows.length > 0;
}
