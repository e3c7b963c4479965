/**
 * Issue 28 item 7: the request log a person reads. Fastify writes JSON lines (pino): two a request
 * ("incoming request", "request completed"). In a terminal that is 7,000 lines an hour of use that
 * nobody reads, so there each request becomes one short line and everything else its level and
 * message; anywhere else (a file, a log collector) the JSON lines stay as they are.
 */

/** How the log is written: `PODIUM_LOG` = off | json | readable, else readable in a terminal. */
export type LogFormat = "json" | "readable";

export function logFormatFrom(value: string | undefined, isTerminal: boolean): LogFormat | false {
  if (value === "off") return false;
  if (value === "json" || value === "readable") return value;
  return isTerminal ? "readable" : "json";
}

/** pino's level numbers. */
const LEVELS: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
/** Requests seen but not completed, by id: a bound, in case a completion line never comes. */
const PENDING_MAX = 10_000;

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
}

const clock = (time: number | undefined) => new Date(time ?? Date.now()).toISOString().slice(11, 19);

/** A stream for Fastify's logger that writes readable lines to `write`. */
export function readableLogStream(write: (text: string) => void): { write(line: string): void } {
  const pending = new Map<string, string>();
  return {
    write(line: string) {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        write(line);
        return;
      }
      if (entry.msg === "incoming request" && entry.reqId && entry.req) {
        if (pending.size >= PENDING_MAX) pending.clear();
        pending.set(entry.reqId, `${entry.req.method ?? "?"} ${entry.req.url ?? "?"}`);
        return;
      }
      if (entry.msg === "request completed" && entry.reqId) {
        const request = pending.get(entry.reqId) ?? "request";
        pending.delete(entry.reqId);
        const ms = typeof entry.responseTime === "number" ? ` ${entry.responseTime.toFixed(1)} ms` : "";
        write(`${clock(entry.time)} ${request} → ${entry.res?.statusCode ?? "?"}${ms}\n`);
        return;
      }
      const level = LEVELS[entry.level ?? 30] ?? "info";
      const error = entry.err?.stack ?? entry.err?.message;
      write(`${clock(entry.time)} ${level} ${entry.msg ?? ""}${error ? `\n${error}` : ""}\n`);
    },
  };
}
