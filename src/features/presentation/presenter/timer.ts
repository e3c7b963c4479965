/**
 * The presenter view's timer: time elapsed since the view opened, which the speaker may pause,
 * resume and reset. Pure: every function takes the clock reading (`now`, in ms) as an argument,
 * so nothing here reads the clock (the server renders the page without one).
 */
export interface TimerState {
  /** Milliseconds counted before the current run (the runs ended by a pause). */
  banked: number;
  /** When the current run started, or null while paused. */
  runningSince: number | null;
}

export function startTimer(now: number): TimerState {
  return { banked: 0, runningSince: now };
}

export function elapsedMs(timer: TimerState, now: number): number {
  const running = timer.runningSince === null ? 0 : Math.max(0, now - timer.runningSince);
  return timer.banked + running;
}

export function pauseTimer(timer: TimerState, now: number): TimerState {
  if (timer.runningSince === null) return timer;
  return { banked: elapsedMs(timer, now), runningSince: null };
}

export function resumeTimer(timer: TimerState, now: number): TimerState {
  if (timer.runningSince !== null) return timer;
  return { banked: timer.banked, runningSince: now };
}

/** Back to 00:00, keeping whether it runs. */
export function resetTimer(timer: TimerState, now: number): TimerState {
  return { banked: 0, runningSince: timer.runningSince === null ? null : now };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "mm:ss" (whole seconds, rounded down); from an hour on, "h:mm:ss". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** The ISO 8601 duration of the same time, for `<time dateTime>` ("PT1M5S"). */
export function isoDuration(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `PT${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds || total === 0 ? `${seconds}S` : ""}`;
}
