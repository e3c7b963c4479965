import type { Queryable } from "../../db/client";

/** What an account says about its person (spec §3 Owner) and the rights it has. */
export interface Person {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  /** Shown instead of first + last name when set (spec §3 Owner). */
  publicDisplayName: string | null;
  isAdmin: boolean;
  isCurator: boolean;
}

export interface UserRow extends Person {
  id: string;
  oid: string;
}

/** The user columns, optionally of a table alias ("u" gives u.id, u.oid, …). */
function userColumns(alias = ""): string {
  const t = alias ? `${alias}.` : "";
  return `${t}id::text as id, ${t}oid, ${t}email, ${t}username, ${t}first_name as "firstName",
    ${t}last_name as "lastName", ${t}public_display_name as "publicDisplayName", ${t}is_admin as "isAdmin",
    ${t}is_curator as "isCurator"`;
}
const USER_COLUMNS = userColumns();

export interface NewUser extends Person {
  oid: string;
  passwordHash: string;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users where lower(email) = lower($1)`, [email]);
  return rows[0] ?? null;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow> {
  const rows = await db.query<UserRow>(
    `insert into users (oid, email, username, first_name, last_name, public_display_name, password_hash, is_admin, is_curator)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     returning ${USER_COLUMNS}`,
    [
      user.oid,
      user.email,
      user.username,
      user.firstName,
      user.lastName,
      user.publicDisplayName,
      user.passwordHash,
      user.isAdmin,
      user.isCurator,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error("insert into users returned no row");
  return row;
}

export interface UserWithSecrets extends UserRow {
  passwordHash: string | null;
  language: string | null;
  /** Spec §3 authorSegment (migration 0011). */
  authorSegment: string;
}

export async function findUserForLogin(db: Queryable, email: string): Promise<UserWithSecrets | null> {
  const rows = await db.query<UserWithSecrets>(
    `select ${USER_COLUMNS}, password_hash as "passwordHash", language, author_segment as "authorSegment" from users where lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

export async function findUserById(db: Queryable, id: string): Promise<UserWithSecrets | null> {
  const rows = await db.query<UserWithSecrets>(
    `select ${USER_COLUMNS}, password_hash as "passwordHash", language, author_segment as "authorSegment" from users where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findUserByOid(db: Queryable, oid: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users where oid = $1`, [oid]);
  return rows[0] ?? null;
}

export async function usernameTaken(db: Queryable, username: string): Promise<boolean> {
  return (await db.query("select 1 from users where username = $1", [username])).length > 0;
}

export async function updateUserProfile(
  db: Queryable,
  id: string,
  profile: { firstName: string; lastName: string; publicDisplayName: string | null; language: string | null },
): Promise<void> {
  await db.query(
    `update users set first_name = $2, last_name = $3, public_display_name = $4, language = $5 where id = $1`,
    [id, profile.firstName, profile.lastName, profile.publicDisplayName, profile.language],
  );
}

/** Spec §3 authorSegment: what the person said they use Podium for (R2.8). */
export async function updateAuthorSegment(db: Queryable, id: string, segment: string): Promise<void> {
  await db.query("update users set author_segment = $2 where id = $1", [id, segment]);
}

export async function updatePasswordHash(db: Queryable, id: string, passwordHash: string): Promise<void> {
  await db.query("update users set password_hash = $2 where id = $1", [id, passwordHash]);
}

/** The users of the sessions that exist and have not expired, by session id (absent ones left out). */
export async function findSessionUsers(
  db: Queryable,
  sessionIds: readonly string[],
): Promise<Map<string, { user: UserWithSecrets; expiresAt: number }>> {
  const rows = await db.query<UserWithSecrets & { sessionId: string; sessionExpiresAt: Date | string }>(
    `select s.id as "sessionId", ${userColumns("u")}, null as "passwordHash", u.language,
            u.author_segment as "authorSegment", s.expires_at as "sessionExpiresAt"
       from sessions s join users u on u.id = s.user_id
      where s.id = any($1::text[]) and s.expires_at > now()`,
    [sessionIds],
  );
  return new Map(
    rows.map(({ sessionId, sessionExpiresAt, ...user }) => [
      sessionId,
      { user, expiresAt: new Date(sessionExpiresAt).getTime() },
    ]),
  );
}

export async function insertSession(
  db: Queryable,
  session: { id: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.query("insert into sessions (id, user_id, expires_at) values ($1, $2, $3)", [
    session.id,
    session.userId,
    session.expiresAt,
  ]);
}

export async function deleteSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query("delete from sessions where id = $1", [sessionId]);
}

/** Ends every other session of a user (after a password change). */
export async function deleteOtherSessions(db: Queryable, userId: string, keepSessionId: string): Promise<void> {
  await db.query("delete from sessions where user_id = $1 and id <> $2", [userId, keepSessionId]);
}

export async function deleteExpiredSessions(db: Queryable): Promise<number> {
  return (await db.query("delete from sessions where expires_at <= now() returning 1")).length;
}

/** A named secret of this installation, created once (the first process to ask wins). */
export async function getOrCreateSecret(db: Queryable, name: string, candidate: string): Promise<string> {
  await db.query("insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing", [
    name,
    candidate,
  ]);
  const rows = await db.query<{ value: string }>("select value from app_secrets where name = $1", [name]);
  const value = rows[0]?.value;
  if (!value) throw new Error(`the secret ${name} could not be stored`);
  return value;
}
