import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { type Database, type Queryable, uniqueViolation } from "../../db/client";
import { isLocale } from "../../i18n/locales";
import { type BatchOptions, createBatcher } from "../../lib/batch";
import { newOid } from "../../lib/ids";
import type { LiveChanges } from "../content-changes";
import type { Viewer } from "../viewer";
import { KeptSessions } from "./kept-sessions";
import { hashPassword, verifyPassword } from "./password";
import {
  deleteOtherSessions,
  deleteSession,
  findSessionUsers,
  findUserById,
  findUserForLogin,
  insertSession,
  insertUser,
  type NewUser,
  type UserRow,
  type UserWithSecrets,
  updatePasswordHash,
  updateUserProfile,
  usernameTaken,
} from "./repository";

/** How long a session lasts without signing in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** A problem with what a person typed, named by field, worded by a message id. */
export class AccountError extends Error {
  override readonly name = "AccountError";
  constructor(
    readonly field:
      | "email"
      | "password"
      | "firstName"
      | "lastName"
      | "publicDisplayName"
      | "currentPassword"
      | "language"
      | "form",
    readonly messageId: string,
  ) {
    super(messageId);
  }
}

const name = z.string().trim().max(100);
const signupSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  firstName: name.min(1),
  lastName: name,
  publicDisplayName: name,
});

export type SignupInput = z.input<typeof signupSchema>;

function firstProblem(error: z.ZodError): AccountError {
  const issue = error.issues[0];
  const field = String(issue?.path[0] ?? "form") as AccountError["field"];
  return new AccountError(field, `accounts.error.${field}`);
}

/** The session id stored in the database: a hash, so a leaked table can't be replayed. */
export function sessionIdOf(token: string): string {
  // Issue 32 item 5: a signed-in person's every request needs it; worked out once per token.
  let id = sessionIds.get(token);
  if (id === undefined) {
    id = createHash("sha256").update(token).digest("hex");
    if (sessionIds.size >= SESSION_IDS_KEPT) sessionIds.clear();
    sessionIds.set(token, id);
  }
  return id;
}

/** Session tokens whose stored id a process keeps (past it, the map starts again). */
const SESSION_IDS_KEPT = 10_000;
const sessionIds = new Map<string, string>();

export function viewerOf(user: UserWithSecrets): NonNullable<Viewer> {
  return {
    userId: user.id,
    oid: user.oid,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    publicDisplayName: user.publicDisplayName,
    language: user.language,
    isAdmin: user.isAdmin,
    isCurator: user.isCurator,
    authorSegment: user.authorSegment,
  };
}

/** The username an email suggests: the part before the `@`, in the characters usernames keep. */
function usernameBase(email: string): string {
  return (
    (email.split("@")[0] ?? "user")
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "")
      .slice(0, 40) || "user"
  );
}

/**
 * Usernames tried before a signup gives up: the email's own, then with a random suffix
 * ("ada.3f9c1e"). Taken ones are skipped on sight; one taken by another signup between the look
 * and the insert is skipped when the insert hits users_username_key.
 */
const USERNAME_ATTEMPTS = 20;

/**
 * Inserts the account. Nothing here trusts an earlier look: two signups at once (in one process
 * or two) can both find the email and the username free, and the database's unique keys decide.
 * A taken email is the "email taken" answer; a taken username (x@a.test and x@b.test both want
 * "x") or oid means trying the next one.
 */
async function insertNewUser(db: Queryable, user: Omit<NewUser, "oid" | "username">): Promise<UserRow> {
  const base = usernameBase(user.email);
  for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt += 1) {
    const username = attempt === 0 ? base : `${base}.${randomBytes(3).toString("hex")}`;
    if (await usernameTaken(db, username)) continue;
    try {
      return await insertUser(db, { ...user, oid: newOid(), username });
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === "users_email_key") throw new AccountError("email", "accounts.error.emailTaken");
      if (constraint !== "users_username_key" && constraint !== "users_oid_key") throw error;
    }
  }
  throw new AccountError("form", "accounts.error.form");
}

export async function signUp(db: Database, input: SignupInput): Promise<UserWithSecrets> {
  const parsed = signupSchema.safeParse(input);
  if (!parsed.success) throw firstProblem(parsed.error);
  const { email, password, firstName, lastName, publicDisplayName } = parsed.data;
  // Said at once when it's plain, before the password's hashing is spent on it.
  if (await findUserForLogin(db, email)) throw new AccountError("email", "accounts.error.emailTaken");
  const passwordHash = await hashPassword(password);
  const created = await insertNewUser(db, {
    email,
    firstName,
    lastName,
    publicDisplayName: publicDisplayName || null,
    passwordHash,
    isAdmin: false,
    isCurator: false,
  });
  const user = await findUserById(db, created.id);
  if (!user) throw new Error("the new user vanished");
  return user;
}

/** A hash of nothing in particular: verifying against it keeps a wrong email as slow as a wrong password. */
let decoyHash: Promise<string> | null = null;

/** The user whose email and password match, or null (one answer for both mistakes). */
export async function logIn(db: Queryable, email: string, password: string): Promise<UserWithSecrets | null> {
  const user = await findUserForLogin(db, email.trim());
  if (!user?.passwordHash) {
    // A decoy that failed (the hashing queue was full) is made again next time, not kept.
    decoyHash ??= hashPassword(randomBytes(16).toString("hex")).catch((error: unknown) => {
      decoyHash = null;
      throw error;
    });
    await verifyPassword(password, await decoyHash);
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function startSession(db: Queryable, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertSession(db, {
    id: sessionIdOf(token),
    userId,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  return token;
}

/** Who a session token belongs to: null for no token, a malformed one, or an ended session. */
export type SessionResolver = (token: string | undefined) => Promise<Viewer>;

/**
 * Every request with a session cookie looks its session up; lookups that arrive together go to
 * the database together (lib/batch.ts), one query for many. With the change feed (`changes`),
 * what was found is kept in the process (kept-sessions.ts, issue 32 item 5) until a change names
 * it: a session that has ended is never taken for a live one once the feed has told this process,
 * which the process that ended it hears before it answers.
 */
export const SESSION_LOOKUP_BATCH: BatchOptions = { maxBatch: 200, maxInFlight: 2 };

export function createSessionResolver(
  db: Queryable,
  options: { batch?: BatchOptions; changes?: LiveChanges; now?: () => number } = {},
): SessionResolver {
  const lookUp = createBatcher(async (sessionIds: string[]) => {
    const users = await findSessionUsers(db, [...new Set(sessionIds)]);
    return sessionIds.map((id) => users.get(id) ?? null);
  }, options.batch ?? SESSION_LOOKUP_BATCH);
  const kept = options.changes ? new KeptSessions(options.changes, options.now) : null;
  return async (token) => {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const id = sessionIdOf(token);
    const hit = kept?.get(id);
    if (hit) return hit;
    const generation = kept?.generation ?? 0;
    const found = await lookUp(id);
    if (!found) return null;
    const viewer = viewerOf(found.user);
    kept?.keep(id, viewer, found.expiresAt, generation);
    return viewer;
  };
}

export async function endSession(db: Queryable, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, sessionIdOf(token));
}

const settingsSchema = z.object({
  firstName: name.min(1),
  lastName: name,
  publicDisplayName: name,
  language: z.string().refine((value) => value === "" || isLocale(value)),
});

export type SettingsInput = z.input<typeof settingsSchema>;

export async function updateSettings(db: Queryable, userId: string, input: SettingsInput): Promise<void> {
  const parsed = settingsSchema.safeParse(input);
  if (!parsed.success) throw firstProblem(parsed.error);
  const { firstName, lastName, publicDisplayName, language } = parsed.data;
  await updateUserProfile(db, userId, {
    firstName,
    lastName,
    publicDisplayName: publicDisplayName || null,
    language: language || null,
  });
}

/** Changes the password after checking the current one; other sessions end. */
export async function changePassword(
  db: Database,
  userId: string,
  sessionToken: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user?.passwordHash || !(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AccountError("currentPassword", "accounts.error.currentPassword");
  }
  if (input.newPassword.length < PASSWORD_MIN_LENGTH || input.newPassword.length > PASSWORD_MAX_LENGTH) {
    throw new AccountError("password", "accounts.error.password");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await updatePasswordHash(tx, userId, passwordHash);
    await deleteOtherSessions(tx, userId, sessionIdOf(sessionToken));
  });
}
