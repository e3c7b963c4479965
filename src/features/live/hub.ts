import type { ServerResponse } from "node:http";
import { connect, type NatsConnection, type Subscription } from "nats";
import { applyLiveEvent, type LiveEvent, type LiveQuestion, type LiveReaction, type LiveState } from "./rules";

/**
 * Issue 35 item 4: the live sessions' event streams. Each process keeps, per session it serves, the
 * followers' and presenters' open responses (server-sent events) and the session's state. Every
 * change is published once: on the core NATS subject `podium.live.<sessionId>` when NATS_URL is
 * set (so a presenter on one process reaches followers on every process, this one included), else
 * straight to this process's streams. An event is serialised once per audience (followers,
 * presenters) and the same bytes are written to every response; a response whose unsent bytes pass
 * `maxBufferedBytes` is a follower that can't keep up and is dropped (it reconnects and gets the
 * state), never allowed to hold the others back or grow the process's memory.
 *
 * Per connection the hub keeps the response in a set and nothing else (no closure per follower:
 * one shared close handler finds its session through a symbol on the response).
 */

/** Issue 35: the live hub's defaults (tests inject smaller ones). */
export const LIVE_HUB_DEFAULTS = {
  /**
   * A follower with more than this unsent is dropped. Queued frames are the same Buffer for every
   * follower (not copies), so this bounds time behind more than memory: about 2,000 step events,
   * or a large state (300 questions) and what follows it.
   */
  maxBufferedBytes: 256 * 1024,
  /** A comment line this often keeps proxies from closing idle streams (most cut at 30–60 s). */
  heartbeatMs: 25_000,
  /** Reactions are summed and sent to the presenter view as one burst this often. */
  reactionFlushMs: 500,
};

export type LiveRole = "follower" | "presenter";

interface Channel {
  sessionId: string;
  followers: Set<ServerResponse>;
  presenters: Set<ServerResponse>;
  /** The state (presenter's view: hidden questions too), once loaded. */
  state: LiveState | null;
  /** Events heard while the state was loading. */
  pending: LiveEvent[] | null;
  loading: Promise<void> | null;
  /** The follower state's frame, serialised once until the state changes. */
  followerStateFrame: Buffer | null;
  subscription: Subscription | null;
}

const CHANNEL = Symbol("liveChannel");
type Attached = ServerResponse & { [CHANNEL]?: Channel };

const HEARTBEAT = Buffer.from(":\n\n");

export interface LiveHub {
  /** Sends an event to every follower and presenter of the session, on every process. */
  publish(sessionId: string, event: LiveEvent): void;
  /** Adds a reaction to the next burst the presenter views get. */
  react(sessionId: string, reaction: LiveReaction): void;
  /**
   * Starts a session's event stream on this response: the state first (unless `lastEventId` says
   * the client already has it), then every event. The response is the hub's until it closes.
   */
  attach(sessionId: string, response: ServerResponse, role: LiveRole, lastEventId: number | null): Promise<void>;
  /** Open streams in this process. */
  counts(): { followers: number; presenters: number; sessions: number };
  /** Ends every stream (the server is stopping) and leaves NATS. */
  close(): Promise<void>;
}

export interface LiveHubOptions {
  natsUrl: string | null;
  /** The session's state from the database (null: no such session). */
  loadState(sessionId: string): Promise<LiveState | null>;
  maxBufferedBytes?: number;
  heartbeatMs?: number;
  reactionFlushMs?: number;
  onError?(error: Error): void;
}

export class LiveHubUnavailableError extends Error {
  override readonly name = "LiveHubUnavailableError";
}

const SUBJECT_PREFIX = "podium.live.";

/** A follower never sees a hidden question's text: it is only told to drop it. */
function forFollowers(question: LiveQuestion): LiveQuestion {
  return question.hidden
    ? { id: question.id, text: "", votes: 0, answered: question.answered, hidden: true }
    : question;
}

function followerState(state: LiveState): LiveState {
  return { ...state, questions: state.questions.filter((question) => !question.hidden) };
}

/** One SSE frame: `id:` is the session's seq (absent for reactions), `event:` its type, `data:` JSON. */
export function sseFrame(event: LiveEvent): Buffer {
  const seq = event.type === "state" ? event.state.seq : event.type === "reactions" ? null : event.seq;
  const data = JSON.stringify(event);
  return Buffer.from(`${seq === null ? "" : `id: ${seq}\n`}event: ${event.type}\ndata: ${data}\n\n`);
}

function followerFrameOf(event: LiveEvent): Buffer | null {
  if (event.type === "reactions") return null;
  if (event.type === "state") return sseFrame({ type: "state", state: followerState(event.state) });
  if (event.type === "questions") return sseFrame({ ...event, questions: event.questions.map(forFollowers) });
  return sseFrame(event);
}

export async function createLiveHub(options: LiveHubOptions): Promise<LiveHub> {
  const maxBuffered = options.maxBufferedBytes ?? LIVE_HUB_DEFAULTS.maxBufferedBytes;
  const channels = new Map<string, Channel>();
  const reactions = new Map<string, Partial<Record<LiveReaction, number>>>();
  const onError = options.onError ?? (() => {});
  let nats: NatsConnection | null = null;
  if (options.natsUrl) {
    try {
      nats = await connect({
        servers: options.natsUrl,
        name: "podium-live",
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
    } catch (error) {
      throw new LiveHubUnavailableError(
        `Cannot reach NATS at ${options.natsUrl} (NATS_URL) for live sessions: ${(error as Error).message}.`,
      );
    }
  }
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const send = (response: ServerResponse, frame: Buffer) => {
    // The headers went out and nothing is chunked (routes.ts): the frame goes to the socket as it is,
    // past the response's own bookkeeping (a tenth of each write's cost with 10,000 followers).
    const socket = response.socket;
    if (!socket || socket.destroyed) return;
    // A follower that can't keep up: drop it rather than buffer for it (it reconnects with its last id).
    if (socket.writableLength > maxBuffered) {
      socket.destroy();
      return;
    }
    socket.write(frame);
  };

  const deliver = (channel: Channel, event: LiveEvent) => {
    if (channel.pending) {
      channel.pending.push(event);
      return;
    }
    if (channel.state && event.type !== "reactions") {
      channel.state = applyLiveEvent(channel.state, event);
      channel.followerStateFrame = null;
    }
    if (event.type !== "reactions" && channel.followers.size > 0) {
      const frame = followerFrameOf(event);
      if (frame) for (const response of channel.followers) send(response, frame);
    }
    if (channel.presenters.size > 0) {
      const frame = sseFrame(event);
      for (const response of channel.presenters) send(response, frame);
    }
    // After the end, every stream is closed: the followers' pages close their EventSource on "ended".
    if (event.type === "ended") {
      for (const response of [...channel.followers, ...channel.presenters]) response.end();
    }
  };

  const deliverLocally = (sessionId: string, event: LiveEvent) => {
    const channel = channels.get(sessionId);
    if (channel) deliver(channel, event);
  };

  function onClose(this: Attached) {
    const channel = this[CHANNEL];
    if (!channel) return;
    this[CHANNEL] = undefined;
    channel.followers.delete(this);
    channel.presenters.delete(this);
    if (channel.followers.size === 0 && channel.presenters.size === 0 && !channel.loading) {
      channels.delete(channel.sessionId);
      channel.subscription?.unsubscribe();
    }
  }

  const openChannel = (sessionId: string): Channel => {
    let channel = channels.get(sessionId);
    if (channel) return channel;
    const created: Channel = {
      sessionId,
      followers: new Set(),
      presenters: new Set(),
      state: null,
      pending: [],
      loading: null,
      followerStateFrame: null,
      subscription: null,
    };
    channel = created;
    channels.set(sessionId, channel);
    if (nats) {
      // Subscribed before the state is read: nothing published meanwhile is missed.
      created.subscription = nats.subscribe(`${SUBJECT_PREFIX}${sessionId}`, {
        callback: (error, message) => {
          if (error) return onError(error);
          try {
            deliver(created, JSON.parse(decoder.decode(message.data)) as LiveEvent);
          } catch (failure) {
            onError(failure as Error);
          }
        },
      });
    }
    created.loading = (async () => {
      try {
        created.state = await options.loadState(sessionId);
      } finally {
        const heard = created.pending ?? [];
        created.pending = null;
        created.loading = null;
        for (const event of heard) deliver(created, event);
        // Every stream closed while the state was read: nothing keeps the channel.
        if (created.followers.size === 0 && created.presenters.size === 0 && channels.get(sessionId) === created) {
          channels.delete(sessionId);
          created.subscription?.unsubscribe();
        }
      }
    })();
    return channel;
  };

  const heartbeat = setInterval(() => {
    for (const channel of channels.values()) {
      for (const response of channel.followers) send(response, HEARTBEAT);
      for (const response of channel.presenters) send(response, HEARTBEAT);
    }
  }, options.heartbeatMs ?? LIVE_HUB_DEFAULTS.heartbeatMs);
  heartbeat.unref();

  const publish = (sessionId: string, event: LiveEvent) => {
    if (nats) nats.publish(`${SUBJECT_PREFIX}${sessionId}`, encoder.encode(JSON.stringify(event)));
    else deliverLocally(sessionId, event);
  };

  const reactionFlush = setInterval(() => {
    for (const [sessionId, counts] of reactions) publish(sessionId, { type: "reactions", counts });
    reactions.clear();
  }, options.reactionFlushMs ?? LIVE_HUB_DEFAULTS.reactionFlushMs);
  reactionFlush.unref();

  return {
    publish,
    react(sessionId, reaction) {
      const counts = reactions.get(sessionId) ?? {};
      counts[reaction] = (counts[reaction] ?? 0) + 1;
      reactions.set(sessionId, counts);
    },
    async attach(sessionId, response, role, lastEventId) {
      const channel = openChannel(sessionId);
      const attached = response as Attached;
      attached[CHANNEL] = channel;
      // Added before the state is read so a failure or close meanwhile cleans up the same way.
      (role === "follower" ? channel.followers : channel.presenters).add(response);
      response.once("close", onClose);
      if (channel.loading) await channel.loading;
      const state = channel.state;
      if (!state) {
        response.end();
        return;
      }
      if (lastEventId !== state.seq) {
        if (role === "presenter") send(response, sseFrame({ type: "state", state }));
        else {
          channel.followerStateFrame ??= followerFrameOf({ type: "state", state });
          if (channel.followerStateFrame) send(response, channel.followerStateFrame);
        }
      }
      if (state.ended) response.end();
    },
    counts() {
      let followers = 0;
      let presenters = 0;
      for (const channel of channels.values()) {
        followers += channel.followers.size;
        presenters += channel.presenters.size;
      }
      return { followers, presenters, sessions: channels.size };
    },
    async close() {
      clearInterval(heartbeat);
      clearInterval(reactionFlush);
      for (const channel of channels.values()) {
        for (const response of [...channel.followers, ...channel.presenters]) response.end();
      }
      channels.clear();
      if (nats) await nats.drain().catch(() => {});
    },
  };
}
