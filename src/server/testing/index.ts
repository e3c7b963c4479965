import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase, type Queryable } from "../../db/client";
import type { TestDatabaseTarget } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { insertUser, type NewUser } from "../../features/accounts/repository";
import { startSession } from "../../features/accounts/service";
import { insertPresentationIfAbsent, type NewPresentation } from "../../features/presentation/repository";
import { stableOid } from "../../lib/ids";
import { buildApp } from "../app";
import { type Config, DEFAULT_FEATURES } from "../config";
import { SESSION_COOKIE } from "../plugins/session";
import { seedDemoContent } from "../seed/seed";
import { DOCUMENT_WORK_TIMEOUT_MS } from "../workers/documents";
import { PDF_CHILD_MEMORY_MB } from "../workers/pdf-pool";
import { TEST_WORKER_DIR } from "./build-workers";

/** Test support: an app on a fresh test database, and an agent that keeps cookies like a browser. */

export const TEST_CONFIG: Config = {
  port: 0,
  host: "127.0.0.1",
  databaseUrl: null,
  dataDir: "memory://",
  env: "production",
  publicUrl: "https://podium.example",
  clientDir: null,
  // Built by the Vitest global setup (testing/build-workers.ts).
  workerDir: TEST_WORKER_DIR,
  // Tests of the limit set their own (hardening.test.ts); elsewhere a busy machine mustn't turn an
  // import into a 422 (1.5 s in production, DOCUMENT_WORK_TIMEOUT_MS).
  documentWorkTimeoutMs: 20 * DOCUMENT_WORK_TIMEOUT_MS,
  pdfMemoryLimitMb: PDF_CHILD_MEMORY_MB,
  features: DEFAULT_FEATURES,
  rateLimitPerMinute: 100_000,
  logger: false,
  seedDemo: false,
  secret: "test-secret-test-secret-test-secret-0123",
  likeRateLimitPerMinute: 100_000,
  accountLimits: { loginPerAddress: 100_000, loginFailuresPerAccount: 8, signupsPerAddress: 100_000 },
  nativeApp: null,
  nativeApps: [],
  cookieConsentRequired: true,
  // Off unless a test is about the page cache: most tests write straight to the database and read back at once.
  pageCacheMaxBytes: 0,
  searchIndex: "memory",
  eventRetentionDays: 90,
  clientLogRetentionDays: 30,
  workers: 1,
  trustProxy: false,
  redisUrl: null,
  redisPrefix: "podium:",
  drainMs: 0,
  // Issue 29: close() stores all the stream holds however busy the machine is (it ends when the stream is empty).
  events: {
    natsUrl: null,
    stream: "PODIUM_EVENTS",
    streamMaxBytes: 64 * 1024 * 1024,
    queueLimit: 100_000,
    drainMaxMs: 120_000,
  },
};

/**
 * A test database with the demo content (seed/seed.ts): a copy of the one the run seeded once
 * (testing/templates.ts), else seeded here.
 */
export async function createSeededDatabase(
  target: TestDatabaseTarget,
): Promise<{ db: Database; drop(): Promise<void>; url?: string }> {
  const created = await target.create(undefined, { seeded: true });
  if (!created.seeded) {
    try {
      await seedDemoContent(created.db);
    } catch (error) {
      await created.drop();
      throw error;
    }
  }
  return created;
}

/** `seeded`: on a database with the demo content (createSeededDatabase). */
export async function createTestApp(
  target: TestDatabaseTarget,
  config: Partial<Config> = {},
  options: { seeded?: boolean } = {},
): Promise<{ app: FastifyInstance; db: Database; url?: string; close(): Promise<void> }> {
  const { db, drop, url } = options.seeded ? await createSeededDatabase(target) : await target.create();
  const app = await buildApp({ ...TEST_CONFIG, ...config }, db);
  return {
    app,
    db,
    /** On PostgreSQL, where another process (or a second app here) may open the same database. */
    url,
    async close() {
      await app.close();
      await drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Two servers on one fresh PostgreSQL database, as two processes are: each with its own
 * connections, change-feed listener and in-process caches. Both closed and the database dropped
 * after `run`, however it ends.
 */
export async function withTwoServers(
  target: TestDatabaseTarget,
  config: Partial<Config>,
  run: (servers: { first: FastifyInstance; second: FastifyInstance; db: Database }) => Promise<void>,
): Promise<void> {
  const { db, drop, url } = await target.create();
  const other = await openDatabase({ url: String(url) });
  const first = await buildApp({ ...TEST_CONFIG, ...config }, db);
  const second = await buildApp({ ...TEST_CONFIG, ...config }, other);
  try {
    await first.ready();
    await second.ready();
    await run({ first, second, db });
  } finally {
    await second.close();
    await first.close();
    await drop();
  }
}

/**
 * Issue 32 item 3: waits until the app's searches see every change committed so far: the change
 * feed has heard them (its barrier) and the search index in memory has read them. A change made
 * straight in the database reaches a visitor's search this way, as soon as it is heard.
 */
export async function searchCaughtUp(app: FastifyInstance): Promise<void> {
  await app.changes.sync();
  await app.searchMemory?.settled();
}

/**
 * The app of a describe block's tests: made on a fresh test database before them (createTestApp, in
 * beforeAll) and closed after them (afterAll). Its fields are there once the tests and later hooks run.
 * `owner`: the email of a person signed up through the real form before the tests, as `owner`.
 */
export function useTestApp(
  target: TestDatabaseTarget,
  options: { config?: Partial<Config>; seeded?: boolean; owner?: string } = {},
): TestApp & { owner: TestAgent } {
  const made = {} as TestApp & { owner: TestAgent };
  beforeAll(async () => {
    Object.assign(made, await createTestApp(target, options.config, { seeded: options.seeded }));
    if (options.owner) {
      made.owner = new TestAgent(made.app);
      await made.owner.signUp(options.owner);
    }
  });
  afterAll(() => made.close());
  return made;
}

/** The oid in a manage page's address (`/dashboard/next/presentations/<oid>/`), "" if there is none. */
export const oidIn = (location: unknown) => /presentations\/([a-z0-9]{12})\//.exec(String(location))?.[1] ?? "";

/** The database with every statement (transactions' too) run through `wrap`'s queryable. */
export function wrappedDatabase(db: Database, wrap: (queryable: Queryable) => Queryable): Database {
  return {
    kind: db.kind,
    query: wrap(db).query,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    ping: () => db.ping(),
    listen: (channel, onMessage, onState) => db.listen(channel, onMessage, onState),
    close: () => db.close(),
  };
}

/** The database, counting the statements run through it (transactions' too): `statements` lists their SQL. */
export function countingDatabase(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: wrappedDatabase(db, (queryable) => ({
      query: (sql, params) => {
        statements.push(sql);
        return queryable.query(sql, params);
      },
    })),
  };
}

/** A page's boot data (`data` of the podium-boot script) as the browser reads it. */
export function pageDataOf<Data>(html: string): Data {
  const json = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  return (JSON.parse(json) as { data: Data }).data;
}

/** Keeps cookies between requests and sends the CSRF token the way Podium's pages do. */
export class TestAgent {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookieHeader = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await this.app.inject({
      ...options,
      headers: { ...(cookieHeader ? { cookie: cookieHeader } : {}), ...options.headers },
    });
    for (const cookie of response.cookies) {
      const expired = cookie.expires !== undefined && cookie.expires.getTime() <= Date.now();
      if (cookie.value === "" || expired || cookie.maxAge === 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: "GET", url, headers });
  }

  /** Posts a form with the CSRF token the page embeds (boot data csrfToken). */
  async postForm(
    url: string,
    fields: Record<string, string>,
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ) {
    const token = options.csrf === undefined ? this.cookies.get("XSRF-TOKEN") : options.csrf;
    const body = new URLSearchParams({ ...fields, ...(token ? { _csrf: token } : {}) }).toString();
    return this.request({
      method: "POST",
      url,
      payload: body,
      headers: { "content-type": "application/x-www-form-urlencoded", ...options.headers },
    });
  }

  /** A JSON API call with no body, carrying the XSRF-TOKEN cookie in the X-XSRF-TOKEN header. */
  api(method: "PUT" | "DELETE" | "POST", url: string, headers: Record<string, string> = {}) {
    const token = this.cookies.get("XSRF-TOKEN");
    return this.request({
      method,
      url,
      headers: { "content-type": "application/json", ...(token ? { "x-xsrf-token": token } : {}), ...headers },
    });
  }

  /** Imports a deck file through the dashboard's form, as a browser posts it (multipart, CSRF token as a field). */
  importDeck(file: { name: string; content: string | Buffer } | null, fields: Record<string, string> = {}) {
    const body = multipartForm(
      { _csrf: this.cookies.get("XSRF-TOKEN") ?? "", privacy: "public", schemaVersion: "2", title: "", ...fields },
      file,
    );
    return this.request({
      method: "POST",
      url: "/dashboard/next/import",
      payload: body.payload,
      headers: { "content-type": body.contentType },
    });
  }

  /** Imports a deck as the owner does from the dashboard (its page first, for the CSRF cookie); its oid. */
  async newDeck(file: { name: string; content: string | Buffer }, fields: Record<string, string> = {}) {
    await this.get("/dashboard/next/");
    return oidIn((await this.importDeck(file, fields)).headers.location);
  }

  /** Adds a view link named `name` to the deck through its manage page's form; the link's id, as that page shows it. */
  async newViewLink(oid: string, name: string) {
    await this.postForm(`/dashboard/next/presentations/${oid}/view-links`, { name });
    const manage = await this.get(`/dashboard/next/presentations/${oid}/`);
    return /\/view\/([A-Za-z0-9_-]{32})\//.exec(manage.body)?.[1] ?? "";
  }

  /**
   * Posts the signup form as typed, whatever the answer: no display name, "Test Person" and the
   * tests' usual password unless told.
   */
  postSignUp(fields: { email: string; password?: string; firstName?: string; lastName?: string; next?: string }) {
    return this.postForm("/signup/", {
      firstName: "Test",
      lastName: "Person",
      publicDisplayName: "",
      password: "correct horse battery",
      ...fields,
    });
  }

  /** Signs up through the real form; leaves the agent signed in. */
  async signUp(email: string, password = "correct horse battery", names = { firstName: "Test", lastName: "Person" }) {
    await this.get("/signup/");
    const response = await this.postSignUp({ ...names, email, password });
    if (response.statusCode !== 303)
      throw new Error(`signup failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return response;
  }
}

/**
 * A multipart body as a browser sends it: the fields, then the file (if any) as `file`, of `type`
 * (application/octet-stream unless given).
 */
export function multipartForm(
  fields: Record<string, string>,
  file: { name: string; content: string | Buffer; type?: string } | null,
): { payload: Buffer; contentType: string } {
  const boundary = "----podiumtestboundary";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Inserts a person directly, for tests that need accounts but not signing in: no display name, no
 * admin or curator rights and a password hash nobody signs in with, unless `person` says otherwise.
 */
export function insertTestUser(
  db: Queryable,
  person: Pick<NewUser, "oid" | "email" | "username" | "firstName" | "lastName"> & Partial<NewUser>,
) {
  return insertUser(db, { publicDisplayName: null, passwordHash: "x", isAdmin: false, isCurator: false, ...person });
}

/**
 * A presentation straight into the database (unless its oid is taken; true when inserted): public,
 * schema "2", two title slides, no description and no tags, unless told.
 */
export function insertTestDeck(
  db: Queryable,
  deck: Pick<NewPresentation, "oid" | "ownerId" | "title"> & Partial<NewPresentation>,
) {
  return insertPresentationIfAbsent(db, {
    descriptionHtml: "",
    privacy: "public",
    schemaVersion: "2",
    tags: [],
    document: importMarkdown("# One\n---\n# Two", "2"),
    ...deck,
  });
}

/**
 * Signs each role up through the real form, as `${role}@${domain}` (`named`: first name the role,
 * capitalised, last name Tester); their agents, signed in, and their user ids.
 */
export async function signUpRoles<Role extends string>(
  app: FastifyInstance,
  db: Queryable,
  roles: readonly Role[],
  domain: string,
  { named = false } = {},
): Promise<{ agents: Record<Role, TestAgent>; ids: Record<Role, string> }> {
  const agents = {} as Record<Role, TestAgent>;
  const ids = {} as Record<Role, string>;
  for (const role of roles) {
    const email = `${role}@${domain}`;
    agents[role] = new TestAgent(app);
    if (named) {
      await agents[role].signUp(email, undefined, {
        firstName: role[0]?.toUpperCase() + role.slice(1),
        lastName: "Tester",
      });
    } else {
      await agents[role].signUp(email);
    }
    ids[role] = await userIdOf(db, email);
  }
  return { agents, ids };
}

/** The id (as text) of the person with this email, "" if there is none. */
export async function userIdOf(db: Queryable, email: string): Promise<string> {
  const [row] = await db.query<{ id: string }>("select id::text as id from users where email = $1", [email]);
  return row?.id ?? "";
}

/**
 * An agent signed in as a new person without hashing a password (scrypt takes a core for half a
 * second, much more on a busy machine): the account and its session are written directly. For
 * tests about what signed-in people see, not about signing in.
 */
export async function signedInAgent(
  app: FastifyInstance,
  db: Database,
  person: { email: string; firstName: string; lastName: string },
): Promise<TestAgent> {
  const user = await insertUser(db, {
    oid: stableOid(`signed-in:${person.email}`),
    email: person.email,
    username: person.email.split("@")[0] ?? person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    publicDisplayName: null,
    // Not a hash: nobody signs in with it.
    passwordHash: "unusable",
    isAdmin: false,
    isCurator: false,
  });
  const agent = new TestAgent(app);
  agent.cookies.set(SESSION_COOKIE, await startSession(db, user.id));
  // The CSRF cookie comes with the first page of a signed-in person.
  await agent.get("/settings/");
  return agent;
}
