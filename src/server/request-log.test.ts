import { describe, expect, it } from "vitest";
import { logFormatFrom, readableLogStream } from "./request-log";

describe("issue 28 item 7: a request log a person can read", () => {
  it("is readable in a terminal and JSON elsewhere, unless PODIUM_LOG says which (or off)", () => {
    expect(logFormatFrom(undefined, true)).toBe("readable");
    expect(logFormatFrom(undefined, false)).toBe("json");
    expect(logFormatFrom("on", true)).toBe("readable");
    expect(logFormatFrom("json", true)).toBe("json");
    expect(logFormatFrom("readable", false)).toBe("readable");
    expect(logFormatFrom("off", true)).toBe(false);
  });

  it("writes one line a request (method, address, status, time) and other entries with their level", () => {
    const out: string[] = [];
    const stream = readableLogStream((text) => out.push(text));
    const time = Date.UTC(2026, 10, 27, 9, 5, 7);
    const line = (entry: object) => stream.write(`${JSON.stringify({ level: 30, time, ...entry })}\n`);
    line({ reqId: "req-1", msg: "incoming request", req: { method: "GET", url: "/p/abc/" } });
    line({ reqId: "req-2", msg: "incoming request", req: { method: "POST", url: "/login/" } });
    line({ reqId: "req-2", msg: "request completed", res: { statusCode: 303 }, responseTime: 12.345 });
    line({ reqId: "req-1", msg: "request completed", res: { statusCode: 200 }, responseTime: 1.5 });
    line({ level: 40, msg: "podium: Redis is away" });
    line({ level: 50, msg: "boom", err: { message: "boom", stack: "Error: boom\n    at here" } });
    expect(out.join("")).toBe(
      [
        "09:05:07 POST /login/ → 303 12.3 ms",
        "09:05:07 GET /p/abc/ → 200 1.5 ms",
        "09:05:07 warn podium: Redis is away",
        "09:05:07 error boom",
        "Error: boom",
        "    at here",
        "",
      ].join("\n"),
    );
  });
});
