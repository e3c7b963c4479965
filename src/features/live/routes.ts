import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { addressKey } from "../../lib/address";
import { isOid } from "../../lib/ids";
import type { FeatureContext } from "../http";
import type { PresenterPageData } from "../presentation/presenter/page-data";
import { canonicalPathOf } from "../presentation/service";
import { LivePage } from "./components/LivePage";
import { LivePresenterPage, type LivePresenterPageData } from "./components/LivePresenterPage";
import type { LiveHub } from "./hub";
import type { LiveEndedPageData } from "./page-data";
import { findSessionByCode, type LiveSessionRow } from "./repository";
import { isLiveReaction, LIVE_JOIN_PATH, livePath, normaliseLiveCode } from "./rules";
import {
  askQuestion,
  createQuestionBroadcaster,
  createStepMover,
  endLive,
  FOLLOWER_COOKIE,
  followerCookieValue,
  followerOf,
  followPageData,
  goLive,
  LiveError,
  markQuestion,
  mayPresentSession,
  newFollowerId,
  openSessionFor,
  type QuestionBroadcaster,
  questionText,
  react,
  sessionDeck,
  sessionThumbnail,
  toggleQuestions,
  voteQuestion,
} from "./service";

/**
 * Issue 35: the limits of live sessions (named here; tests inject smaller ones through
 * `Config.live`). The README's "Live sessions" section works out what they mean for guessing.
 */
export const LIVE_LIMITS = {
  /** Unknown codes an address may try (the follow page, its document, its stream) per window… */
  joinFailuresPerAddress: 20,
  /** …of 15 minutes, as login failures (accounts/login-throttle.ts). */
  joinWindowMs: 15 * 60 * 1000,
  /** Reactions per follower per 10 s: a burst of applause, not a flood. */
  reactionsPerFollower: 10,
  reactionWindowMs: 10 * 1000,
  /** Questions per follower per minute. */
  questionsPerFollower: 5,
  questionWindowMs: 60 * 1000,
  /** Votes per follower per minute (one per question in any case). */
  votesPerFollower: 60,
  voteWindowMs: 60 * 1000,
};
export type LiveLimits = typeof LIVE_LIMITS;

/** How long a follower's cookie lasts (a long lecture; it only ever works for its session). */
const FOLLOWER_COOKIE_MAX_AGE_S = 12 * 60 * 60;
/** Addresses past the join limit, remembered in this process (bounded; cleared when full). */
const BLOCKED_ADDRESSES_KEPT = 10_000;

type CodeRequest = FastifyRequest<{ Params: { code: string } }>;

function questionIdOf(request: FastifyRequest): string {
  return String((request.params as Record<string, unknown>).id ?? "");
}

export interface LiveRoutes {
  /** Issue 35 item 1: the presenter view with its live panel (registered by the presenter routes). */
  presenterPage: {
    data(request: FastifyRequest, oid: string | null, data: PresenterPageData): Promise<LivePresenterPageData>;
    render(data: LivePresenterPageData): ReturnType<typeof createElement>;
  };
  broadcaster: QuestionBroadcaster;
}

/**
 * Issue 35: live sessions. The follow page, its document, thumbnail and event stream (anyone with
 * the code, while the session runs); followers' reactions, questions and votes (the follower cookie
 * and CSRF); the presenter's Go live, step, settings, questions and End (owner or editor, CSRF).
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  context: FeatureContext,
  hub: LiveHub,
  overrides: Partial<LiveLimits> = {},
): LiveRoutes {
  const { db } = context;
  const limits = { ...LIVE_LIMITS, ...overrides };
  const joinFailures = context.limits.sliding("live-join", limits.joinFailuresPerAddress, limits.joinWindowMs);
  const reactionBudget = context.limits.fixed("live-reaction", limits.reactionsPerFollower, limits.reactionWindowMs);
  const questionBudget = context.limits.fixed("live-question", limits.questionsPerFollower, limits.questionWindowMs);
  const voteBudget = context.limits.fixed("live-vote", limits.votesPerFollower, limits.voteWindowMs);
  const broadcaster = createQuestionBroadcaster(db, hub);
  const moveStep = createStepMover(db, hub);
  const blocked = new Map<string, number>();

  const tooMany = (reply: FastifyReply, seconds: number) =>
    reply
      .status(429)
      .header("retry-after", String(seconds))
      .header("cache-control", "no-store")
      .send({
        statusCode: 429,
        message: `Too many tries. Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and try again.`,
      });

  /**
   * A session by the code in the address; an unknown code counts against the address (guessing
   * is throttled: issue 35 "Done when"), and an address past the limit is refused even a right one.
   */
  const lookUp = async (request: CodeRequest): Promise<LiveSessionRow | { retryAfter: number } | null> => {
    const key = addressKey(request.ip);
    const until = blocked.get(key);
    const now = Date.now();
    if (until !== undefined) {
      if (until > now) return { retryAfter: Math.ceil((until - now) / 1000) };
      blocked.delete(key);
    }
    const code = normaliseLiveCode(request.params.code);
    const session = code && code === request.params.code ? await findSessionByCode(db, code) : null;
    if (session) return session;
    const verdict = await joinFailures.hit(key);
    if (!verdict.allowed) {
      if (blocked.size >= BLOCKED_ADDRESSES_KEPT) blocked.clear();
      blocked.set(key, now + verdict.retryAfterSeconds * 1000);
      return { retryAfter: verdict.retryAfterSeconds };
    }
    return null;
  };

  const sendLiveError = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof LiveError)) throw error;
    return reply
      .status(error.statusCode)
      .header("cache-control", "no-store")
      .send({ statusCode: error.statusCode, message: error.message });
  };

  const endedPage = async (request: FastifyRequest, reply: FastifyReply, session: LiveSessionRow | null) => {
    let data: LiveEndedPageData = { deckPath: null, title: null };
    if (session) {
      const row = await sessionDeck(db, session).catch(() => null);
      // The code granted the deck for the session's length only: afterwards a private deck is not named.
      if (row && row.privacy !== "private") data = { deckPath: canonicalPathOf(row), title: row.title };
    }
    reply.header("cache-control", "private, no-store");
    return context.sendPage(request, reply, {
      entry: "live",
      status: 404,
      data: { follow: null, ended: data },
      render: (pageData) => createElement(LivePage, { data: pageData }),
      head: { title: { id: "live.ended.pageTitle" }, noindex: true },
    });
  };

  // Issue 35 item 2: where someone in the room types the code. A code of the right shape goes on
  // to its follow page (which counts unknown codes against the address); anything else is said.
  app.get(LIVE_JOIN_PATH, async (request, reply) => {
    const asked = (request.query as { code?: unknown }).code;
    const typed = typeof asked === "string" ? asked.slice(0, 64) : "";
    const code = typed ? normaliseLiveCode(typed) : null;
    if (code) return reply.redirect(livePath(code), 303);
    return context.sendPage(request, reply, {
      entry: "live",
      status: typed ? 400 : 200,
      data: { follow: null, ended: null, join: { typed, invalid: typed !== "" } },
      render: (pageData) => createElement(LivePage, { data: pageData }),
      head: { title: { id: "live.join.pageTitle" } },
    });
  });

  // The follow page (issue 35 item 2).
  app.get("/live/:code", async (request: CodeRequest, reply) => {
    const typed = normaliseLiveCode(request.params.code);
    if (typed && typed !== request.params.code) return reply.redirect(livePath(typed), 303);
    const found = await lookUp(request);
    if (found && "retryAfter" in found) {
      reply.header("retry-after", String(found.retryAfter));
      return context.sendError(request, reply, 429);
    }
    if (!found || found.endedAt) return endedPage(request, reply, found);
    let data: Awaited<ReturnType<typeof followPageData>>;
    try {
      data = await followPageData(db, found);
    } catch (error) {
      if (error instanceof LiveError) return endedPage(request, reply, null);
      throw error;
    }
    if (!followerOf(context.secret, found.id, request.cookies[FOLLOWER_COOKIE])) {
      reply.setCookie(FOLLOWER_COOKIE, followerCookieValue(context.secret, found.id, newFollowerId()), {
        path: livePath(found.code),
        httpOnly: true,
        sameSite: "lax",
        secure: context.publicUrl.startsWith("https:"),
        maxAge: FOLLOWER_COOKIE_MAX_AGE_S,
      });
    }
    reply.header("cache-control", "private, no-store");
    // A live code is a secret like a view link: keep it out of Referer headers.
    reply.header("referrer-policy", "no-referrer");
    return context.sendPage(request, reply, {
      entry: "live",
      data: { follow: data, ended: null },
      // The CSRF token for the follower's reactions, questions and votes.
      forms: true,
      render: (pageData) => createElement(LivePage, { data: pageData }),
      head: { title: { id: "live.pageTitle", values: { title: data.title } }, noindex: true },
    });
  });

  /** An open session for a follower's request, or the answer already sent. */
  const openSession = async (request: CodeRequest, reply: FastifyReply): Promise<LiveSessionRow | null> => {
    const found = await lookUp(request);
    if (found && "retryAfter" in found) {
      tooMany(reply, found.retryAfter);
      return null;
    }
    if (!found || found.endedAt) {
      reply
        .status(404)
        .header("cache-control", "no-store")
        .send({ statusCode: 404, message: "This live session has ended or never existed." });
      return null;
    }
    return found;
  };

  app.get("/live/:code/document.json", async (request: CodeRequest, reply) => {
    const session = await openSession(request, reply);
    if (!session) return reply;
    try {
      const row = await sessionDeck(db, session);
      return reply
        .header("cache-control", "private, no-store")
        .type("application/json; charset=utf-8")
        .send(row.document);
    } catch (error) {
      return sendLiveError(reply, error);
    }
  });

  app.get("/live/:code/thumbnail.svg", async (request: CodeRequest, reply) => {
    const session = await openSession(request, reply);
    if (!session) return reply;
    try {
      const svg = await sessionThumbnail(db, session);
      return reply
        .type("image/svg+xml; charset=utf-8")
        .header("content-security-policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox")
        .header("cache-control", "private, no-store")
        .send(svg);
    } catch (error) {
      return sendLiveError(reply, error);
    }
  });

  // Issue 35 item 4: the event stream (server-sent events). `?as=presenter` adds reactions and
  // hidden questions, for the deck's owner and editors.
  app.get("/live/:code/events", { config: { uncached: true } }, async (request: CodeRequest, reply) => {
    const session = await openSession(request, reply);
    if (!session) return reply;
    const query = request.query as { as?: string };
    const role = query.as === "presenter" ? "presenter" : "follower";
    if (role === "presenter" && !(await mayPresentSession(db, request.viewer, session))) {
      return reply.status(403).send({ statusCode: 403, message: "Only the owner or an editor can watch this." });
    }
    const header = request.headers["last-event-id"];
    const lastEventId = typeof header === "string" && /^\d{1,15}$/.test(header) ? Number(header) : null;
    reply.hijack();
    const response = reply.raw;
    response.socket?.setNoDelay(true);
    // The stream ends when the connection does: no chunked encoding, so each event is one write of
    // the shared bytes (chunks cost a header and a writev per follower per event).
    response.useChunkedEncodingByDefault = false;
    response.shouldKeepAlive = false;
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      connection: "close",
      // Proxies that buffer (nginx) pass each event on at once.
      "x-accel-buffering": "no",
    });
    // The headers go now, whether or not the state follows (a client that has it waits for the next event).
    response.flushHeaders();
    await hub.attach(session.id, response, role, lastEventId);
  });

  const follower = (request: CodeRequest, session: LiveSessionRow): string => {
    const id = followerOf(context.secret, session.id, request.cookies[FOLLOWER_COOKIE]);
    if (!id) throw new LiveError(403, "Open the live page again to join this session.");
    return id;
  };
  const within = async (budget: typeof reactionBudget, key: string) => {
    const verdict = await budget.hit(key);
    if (!verdict.allowed) throw Object.assign(new LiveError(429, "Too many at once. Please wait a moment."), verdict);
  };
  const followerRoute =
    (
      act: (request: CodeRequest, session: LiveSessionRow, followerId: string) => Promise<unknown>,
    ): ((request: CodeRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request, reply) => {
      const session = await openSession(request, reply);
      if (!session) return reply;
      try {
        const result = await act(request, session, follower(request, session));
        return reply.header("cache-control", "no-store").send(result ?? { ok: true });
      } catch (error) {
        if (error instanceof LiveError && error.statusCode === 429) {
          return tooMany(reply, (error as LiveError & { retryAfterSeconds?: number }).retryAfterSeconds ?? 1);
        }
        return sendLiveError(reply, error);
      }
    };
  const body = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
  const counts = { config: { countsOnly: true } };

  app.post(
    "/live/:code/reactions",
    counts,
    followerRoute(async (request, session, followerId) => {
      const { reaction } = body(request);
      if (!isLiveReaction(reaction)) throw new LiveError(400, "Choose one of the reactions offered.");
      await within(reactionBudget, followerId);
      react(hub, session, reaction);
    }),
  );
  app.post(
    "/live/:code/questions",
    counts,
    followerRoute(async (request, session, followerId) => {
      // Checked before the budget: a refused question doesn't use it up.
      const text = questionText(body(request).text);
      if (!session.questionsEnabled) throw new LiveError(409, "Questions are turned off for this session.");
      await within(questionBudget, followerId);
      await askQuestion(db, broadcaster, session, followerId, text);
    }),
  );
  app.post(
    "/live/:code/questions/:id/vote",
    counts,
    followerRoute(async (request, session, followerId) => {
      await within(voteBudget, followerId);
      const result = await voteQuestion(db, broadcaster, session, followerId, questionIdOf(request));
      return { counted: result === "counted" };
    }),
  );

  // The presenter's side (owner or editor; session and CSRF checked by the app's hooks).
  const presenterRoute =
    (act: (request: FastifyRequest) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const result = await act(request);
        return reply.header("cache-control", "no-store").send(result ?? { ok: true });
      } catch (error) {
        return sendLiveError(reply, error);
      }
    };
  const codeOf = (request: FastifyRequest) => {
    const code = normaliseLiveCode((request.params as { code: string }).code);
    if (!code) throw new LiveError(404, "No such live session.");
    return code;
  };
  const flag = (value: unknown, name: string): boolean => {
    if (typeof value !== "boolean") throw new LiveError(400, `"${name}" must be true or false.`);
    return value;
  };

  app.post(
    "/p/presenter/:oid/live",
    counts,
    presenterRoute(async (request) => {
      const { oid } = request.params as { oid: string };
      if (!isOid(oid)) throw new LiveError(404, "No such presentation.");
      const { step } = body(request);
      return goLive(db, request.viewer, oid, typeof step === "number" ? step : 0, context.publicUrl);
    }),
  );
  app.post(
    "/live/:code/step",
    counts,
    presenterRoute(async (request) => {
      const { step } = body(request);
      await moveStep(request.viewer, codeOf(request), typeof step === "number" ? step : -1);
    }),
  );
  app.post(
    "/live/:code/settings",
    counts,
    presenterRoute(async (request) => {
      const enabled = flag(body(request).questionsEnabled, "questionsEnabled");
      await toggleQuestions(db, hub, request.viewer, codeOf(request), enabled);
    }),
  );
  app.post(
    "/live/:code/questions/:id",
    counts,
    presenterRoute(async (request) => {
      const { answered, hidden } = body(request);
      const change = {
        ...(answered === undefined ? {} : { answered: flag(answered, "answered") }),
        ...(hidden === undefined ? {} : { hidden: flag(hidden, "hidden") }),
      };
      await markQuestion(db, broadcaster, request.viewer, codeOf(request), questionIdOf(request), change);
    }),
  );
  app.post(
    "/live/:code/end",
    counts,
    presenterRoute(async (request) => {
      await endLive(db, hub, request.viewer, codeOf(request));
    }),
  );

  return {
    broadcaster,
    presenterPage: {
      async data(request, oid, data) {
        const live = oid ? await liveForPresenter(request, oid) : null;
        return { presenter: data, canGoLive: oid !== null && request.viewer !== null, live };
      },
      render: (data) => createElement(LivePresenterPage, { data }),
    },
  };

  async function liveForPresenter(request: FastifyRequest, oid: string) {
    return request.viewer ? openSessionFor(db, oid, context.publicUrl) : null;
  }
}
