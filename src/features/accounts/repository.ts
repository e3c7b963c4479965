import type { Queryable } from "../../db/client";

export interface UserRow {
  id: string;
  oid: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  publicDisplayName: string | null;
  isAdmin: boolean;
  isCurator: boolean;
}

const USER_COLUMNS = `id::text as id, oid, email, username, first_name as "firstName", last_name as "lastName",
  public_display_name as "publicDisplayName", is_admin as "isAdmin", is_curator as "isCurator"`;

export interface NewUser {
  oid: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  publicDisplayName: string | null;
  passwordHash: string;
  isAdmin: boolean;
  isCurator: boolean;
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
