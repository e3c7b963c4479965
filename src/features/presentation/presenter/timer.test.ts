import { describe, expect, it } from "vitest";
import { elapsedMs, formatElapsed, isoDuration, pauseTimer, resetTimer, resumeTimer, startTimer } from "./timer";

describe("issue 10: the presenter view's timer", () => {
  it("issue 10: shows mm:ss, rounding down to whole seconds, and h:mm:ss from an hour on", () => {
    expect(formatElapsed(0)).toBe("00:00");
    expect(formatElapsed(999)).toBe("00:00");
    expect(formatElapsed(1_000)).toBe("00:01");
    expect(formatElapsed(65_432)).toBe("01:05");
    expect(formatElapsed(59 * 60_000 + 59_999)).toBe("59:59");
    expect(formatElapsed(3_600_000)).toBe("1:00:00");
    expect(formatElapsed(3_600_000 * 2 + 61_000)).toBe("2:01:01");
    expect(formatElapsed(-5)).toBe("00:00");
    expect(formatElapsed(Number.NaN)).toBe("00:00");
  });

  it("issue 10: gives the same time as an ISO 8601 duration for <time>", () => {
    expect(isoDuration(0)).toBe("PT0S");
    expect(isoDuration(65_000)).toBe("PT1M5S");
    expect(isoDuration(120_000)).toBe("PT2M");
    expect(isoDuration(3_661_000)).toBe("PT1H1M1S");
  });

  it("issue 10: counts from the start, stops while paused, goes on after resume", () => {
    let timer = startTimer(1_000);
    expect(elapsedMs(timer, 1_000)).toBe(0);
    expect(elapsedMs(timer, 11_000)).toBe(10_000);
    timer = pauseTimer(timer, 11_000);
    expect(timer.runningSince).toBeNull();
    expect(elapsedMs(timer, 50_000)).toBe(10_000);
    expect(pauseTimer(timer, 60_000)).toBe(timer);
    timer = resumeTimer(timer, 50_000);
    expect(elapsedMs(timer, 55_000)).toBe(15_000);
    expect(resumeTimer(timer, 56_000)).toBe(timer);
  });

  it("issue 10: reset goes back to 00:00 and keeps running or paused", () => {
    const running = resetTimer(startTimer(0), 30_000);
    expect(elapsedMs(running, 30_000)).toBe(0);
    expect(elapsedMs(running, 32_000)).toBe(2_000);
    const paused = resetTimer(pauseTimer(startTimer(0), 30_000), 40_000);
    expect(paused).toEqual({ banked: 0, runningSince: null });
    expect(elapsedMs(paused, 90_000)).toBe(0);
  });

  it("issue 10: a clock that steps back never makes time negative", () => {
    expect(elapsedMs(startTimer(10_000), 9_000)).toBe(0);
  });
});
