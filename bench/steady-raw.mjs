// Issue 32 item 4: a steady, open-loop load that costs the machine little, for rates in the
// thousands a second (usage events at 5,000/s). support.steadyLoad does the same through Node's
// HTTP client, whose per-request cost (a ClientRequest, the agent, a parser: about a fifth of a
// core at 5,000/s on this machine) competed with the server it measured and showed up as latency
// of its own: bench:events called its figure an upper bound. This one writes the same request's
// bytes on raw keep-alive sockets and reads the answers' status lines and lengths only.
//
// Open loop: request n is due at start + n / rate whatever the answers before it are doing. It
// goes at its time on an idle connection, or on a new one while fewer than `maxConnections` are
// open, or else as soon as a connection frees; its latency runs from its due time until its
// answer has been read whole, so a server (or this client) that falls behind shows as waiting,
// never hidden. Timers fire about every millisecond and send everything due by then.
import net from "node:net";
import { latencyFigures } from "./support.mjs";

/** "\r\n\r\n": where an answer's head ends. */
const HEAD_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CLOSES = /\r\nconnection:[ \t]*close/i;
/** Digits of a status line "HTTP/1.1 204 …" start at byte 9. */
const STATUS_AT = 9;
const DIGIT_ZERO = 0x30;

/** Whether an answer's head (up to `headEnd`) may say "connection: close" (any case): it holds "lose". */
const mayClose = (data, headEnd) => {
  const at = data.indexOf("lose");
  return at !== -1 && at < headEnd;
};

/**
 * The bytes of one HTTP/1.1 request, keep-alive, with a content-length when it has a body.
 * `headers` as an object of names to values (host is added).
 */
export function rawRequest({ host, port, method = "GET", path, headers = {}, body = undefined }) {
  const payload = body === undefined ? null : Buffer.from(body);
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}:${port}`, "connection: keep-alive"];
  for (const [name, value] of Object.entries(headers)) {
    if (["host", "connection", "content-length"].includes(name.toLowerCase())) continue;
    lines.push(`${name}: ${value}`);
  }
  if (payload) lines.push(`content-length: ${payload.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return payload ? Buffer.concat([head, payload]) : head;
}

/**
 * Sends `request` (rawRequest's bytes) `rate` times a second for `durationS` (after `warmupS`,
 * not counted) to host:port, evenly spaced, open loop. Resolves with { sent, codes, errors,
 * p50, p99, max } (ms) of the measured part, and codesInAll: the answers by status, warm-up included.
 */
export function steadyRawLoad(
  host,
  port,
  { rate, durationS, warmupS = 0, request, connections = 50, maxConnections = 256 },
) {
  const intervalMs = 1000 / rate;
  const warmupCount = Math.round(warmupS * rate);
  const total = warmupCount + Math.round(durationS * rate);
  const latencies = [];
  const codes = {};
  /** Answers by status, warm-up included (what the server was told it answered). */
  const codesInAll = {};
  let errors = 0;
  let settled = 0;
  let open = 0;
  const idle = [];
  /** Requests due that found no connection free, oldest first: their numbers. */
  const waiting = [];
  const sockets = new Set();

  return new Promise((done) => {
    let startedAt = 0;
    const dueAt = (n) => startedAt + n * intervalMs;

    const finish = (n, status) => {
      if (status !== null) codesInAll[status] = (codesInAll[status] ?? 0) + 1;
      if (n >= warmupCount) {
        if (status === null) errors += 1;
        else {
          latencies.push(performance.now() - dueAt(n));
          codes[status] = (codes[status] ?? 0) + 1;
        }
      }
      settled += 1;
      if (settled < total) return;
      for (const socket of sockets) socket.destroy();
      done({ sent: total - warmupCount, codes, codesInAll, errors, ...latencyFigures(latencies) });
    };

    /** A connection is free: the oldest waiting request goes on it, or it waits for the next one due. */
    const free = (connection) => {
      if (waiting.length > 0) send(connection, waiting.shift());
      else idle.push(connection);
    };

    const send = (connection, n) => {
      connection.n = n;
      connection.socket.write(request);
    };

    const connect = () =>
      new Promise((ready) => {
        open += 1;
        const socket = net.connect(port, host);
        socket.setNoDelay(true);
        sockets.add(socket);
        const connection = { socket, n: -1, pending: null };
        const lost = () => {
          if (!sockets.delete(socket)) return;
          open -= 1;
          const index = idle.indexOf(connection);
          if (index !== -1) idle.splice(index, 1);
          if (connection.n !== -1) {
            const n = connection.n;
            connection.n = -1;
            finish(n, null);
          }
          ready(null);
        };
        socket.on("connect", () => ready(connection));
        socket.on("error", lost);
        socket.on("close", lost);
        socket.on("data", (chunk) => {
          let data = connection.pending === null ? chunk : Buffer.concat([connection.pending, chunk]);
          connection.pending = null;
          // One answer per request (no pipelining); anything after it would be a protocol error.
          const headEnd = data.indexOf(HEAD_END);
          if (headEnd === -1) {
            connection.pending = data;
            return;
          }
          const status =
            (data[STATUS_AT] - DIGIT_ZERO) * 100 +
            (data[STATUS_AT + 1] - DIGIT_ZERO) * 10 +
            data[STATUS_AT + 2] -
            DIGIT_ZERO;
          // A 204 has no body; a head without "close" keeps the connection (the usual answer: no text made of it).
          const head = status === 204 && !mayClose(data, headEnd) ? null : data.toString("latin1", 0, headEnd);
          const length = head === null || status === 204 ? 0 : Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
          if (data.length < headEnd + 4 + length) {
            connection.pending = data;
            return;
          }
          data = null;
          const n = connection.n;
          connection.n = -1;
          finish(n, status);
          if (head !== null && CLOSES.test(head)) socket.destroy();
          else free(connection);
        });
      });

    const goes = (n) => {
      const connection = idle.pop();
      if (connection) send(connection, n);
      else {
        waiting.push(n);
        if (open < maxConnections) void connect().then((fresh) => fresh && free(fresh));
      }
    };

    let next = 0;
    const tick = () => {
      // Everything due by now goes now (a late timer sends the ones it owes at once).
      while (next < total && dueAt(next) <= performance.now()) goes(next++);
      if (next < total) setTimeout(tick, Math.max(0, dueAt(next) - performance.now()));
    };

    void Promise.all(Array.from({ length: connections }, connect)).then((ready) => {
      for (const connection of ready) if (connection) idle.push(connection);
      startedAt = performance.now() + 20;
      setTimeout(tick, 20);
    });
  });
}
