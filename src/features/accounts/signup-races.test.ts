import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase, type Queryable } from "../../db/client";
import { testDatabaseTargets } from "../../db/testing";
import { newOid } from "../../lib/ids";
import { buildApp } from "../../server/app";
import { TEST_CONFIG, TestAgent } from "../../server/testing";

/**
 * Issue 27 item 4: sign-ups that race. Two processes (two apps, each with its own connections to
 * one PostgreSQL database) or two requests at once in one process (PGlite) both look for the
 * email and the username, find them free, and both insert. The looks are made to happen before
 * either insert in every round (a gate holds each look until its twin arrives), so the race is
 * forced, not waited for: no timing decides whether a round tests anything.
 */

// Scrypt's cost (N=2^17, one at a time per process) isn't what these rounds are about.
vi.mock("./password", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./password")>()),
  hashPassword: async () => "scrypt$1024$8$1$c2FsdA$a2V5",
}));

// The oid test hands out a taken oid once; every other call is the real one.
vi.mock("../../lib/ids", async (importOriginal) => {
  const ids = await importOriginal<typeof import("../../lib/ids")>();
  return { ...ids, newOid: vi.fn(ids.newOid) };
});

/** Rounds per race: each one forces the race, so these are repetitions, not lottery tickets. */
const ROUNDS = 20;

const EMAIL_TAKEN = "An account with this email already exists.";

/** The statements a signup looks with before it inserts (features/accounts/repository.ts). */
const EMAIL_LOOK = /from users where lower\(email\) = lower\(\$1\)/;
const USERNAME_LOOK = /from users where username = \$1/;

type Gate = (sql: string) => Promise<void>;

/**
 * Holds statements in pairs: of the first `holds` statements matching a pattern, each odd one
 * waits for the next one to arrive, then both run. With two signups under way, both looks run
 * before either signup can insert, whatever the order the machine runs them in.
 */
function pairingGate(rules: { pattern: RegExp; holds: number }[]): Gate {
  const state = rules.map((rule) => ({ ...rule, seen: 0, waiting: null as (() => void) | null }));
  return async (sql) => {
    const rule = state.find((candidate) => candidate.pattern.test(sql));
    if (!rule || rule.seen >= rule.holds) return;
    rule.seen += 1;
    const twin = rule.waiting;
    if (twin) {
      rule.waiting = null;
      twin();
      return;
    }
    await new Promise<void>((resolve) => {
      rule.waiting = resolve;
    });
  };
}

/**
 * The database with every statement passing the current gate first. On PostgreSQL a transaction's
 * statements pass it too; on PGlite a transaction holds the whole database, so nothing can come
 * between its look and its insert, and holding it for a twin would wait for ever.
 */
function gated(db: Database, gate: { current: Gate | null }): Database {
  const through = (q: Queryable): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      await gate.current?.(sql);
      return q.query<Row>(sql, params);
    },
  });
  return {
    ...db,
    query: through(db).query,
    transaction: (fn) => db.transaction((tx) => fn(db.kind === "postgres" ? through(tx) : tx)),
  };
}

/** An agent with the signup form's CSRF token, ready to post. */
async function readyToSignUp(app: FastifyInstance): Promise<TestAgent> {
  const agent = new TestAgent(app);
  await agent.get("/signup/");
  return agent;
}

function postSignUp(agent: TestAgent, email: string) {
  return agent.postSignUp({ firstName: "Race", lastName: "Runner", email });
}

describe.each(testDatabaseTargets())("sign-ups at once on $name", (target) => {
  const gate: { current: Gate | null } = { current: null };
  let db: Database;
  let drop: () => Promise<void>;
  /** Two processes on PostgreSQL; on PGlite (one process only) one app taking two requests at once. */
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    const created = await target.create();
    db = created.db;
    drop = created.drop;
    first = await buildApp(TEST_CONFIG, gated(db, gate));
    second = created.url ? await buildApp(TEST_CONFIG, gated(await openDatabase({ url: created.url }), gate)) : first;
  });
  afterAll(async () => {
    gate.current = null;
    if (second !== first) await second.close();
    await first.close();
    await drop();
  });

  const accountsOf = (email: string) =>
    db.query<{ username: string }>("select username from users where lower(email) = lower($1)", [email]);

  it("issue 27 item 4: the same email signed up twice at once on two processes: one account, the other told the email is taken, never a 500", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const email = `same.${round}@race.test`;
      const agents = await Promise.all([readyToSignUp(first), readyToSignUp(second)]);
      // Both email looks (and, where the signup looks again in a transaction, both of those) and
      // both username looks run before either insert.
      gate.current = pairingGate([
        { pattern: EMAIL_LOOK, holds: 4 },
        { pattern: USERNAME_LOOK, holds: 2 },
      ]);
      const answers = await Promise.all(agents.map((agent) => postSignUp(agent, email)));
      gate.current = null;
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.toSorted(), `round ${round}`).toEqual([303, 409]);
      const loser = answers.find((answer) => answer.statusCode === 409);
      expect(loser?.body).toContain(EMAIL_TAKEN);
      expect(await accountsOf(email)).toHaveLength(1);
    }
  });

  it("issue 27 item 4: two emails with one local part (x@a.test, x@b.test) signed up at once on two processes: two accounts with different usernames, never a 500", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const local = `x${round}`;
      const emails = [`${local}@a.test`, `${local}@b.test`] as const;
      const agents = [await readyToSignUp(first), await readyToSignUp(second)] as const;
      // Both find the username `x<round>` free before either takes it.
      gate.current = pairingGate([
        { pattern: EMAIL_LOOK, holds: 4 },
        { pattern: USERNAME_LOOK, holds: 2 },
      ]);
      const answers = await Promise.all([postSignUp(agents[0], emails[0]), postSignUp(agents[1], emails[1])]);
      gate.current = null;
      expect(
        answers.map((answer) => answer.statusCode),
        `round ${round}`,
      ).toEqual([303, 303]);
      const usernames = [...(await accountsOf(emails[0])), ...(await accountsOf(emails[1]))].map((row) => row.username);
      expect(usernames).toHaveLength(2);
      expect(new Set(usernames).size).toBe(2);
      expect(usernames).toContain(local);
      expect(usernames.find((name) => name !== local)).toMatch(new RegExp(`^${local}\\.[0-9a-f]{6}$`));
    }
  });

  it("issue 27 item 4: a new account whose random oid is already someone's gets another one, not a 500", async () => {
    const earlier = await readyToSignUp(first);
    expect((await postSignUp(earlier, "oid.first@race.test")).statusCode).toBe(303);
    const [taken] = await db.query<{ oid: string }>("select oid from users where email = $1", ["oid.first@race.test"]);
    vi.mocked(newOid).mockReturnValueOnce(taken?.oid ?? "");
    const later = await readyToSignUp(second);
    expect((await postSignUp(later, "oid.second@race.test")).statusCode).toBe(303);
    const [row] = await db.query<{ oid: string }>("select oid from users where email = $1", ["oid.second@race.test"]);
    expect(row?.oid).toMatch(/^[a-z0-9]{12}$/);
    expect(row?.oid).not.toBe(taken?.oid);
  });
});
