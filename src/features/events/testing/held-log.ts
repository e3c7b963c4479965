import { act } from "@testing-library/react";
import { vi } from "vitest";
import { trackEvent } from "../client";

/**
 * For component tests that mock `trackEvent` (vi.mock of events/client): the next log call settles
 * only when the test calls the returned function, so a test sees what waits for the log.
 */
export function holdNextLog(): (ok: boolean) => Promise<void> {
  let settle: (ok: boolean) => void = () => {};
  vi.mocked(trackEvent).mockImplementationOnce(
    () =>
      new Promise<boolean>((resolve) => {
        settle = resolve;
      }),
  );
  return (ok: boolean) => act(async () => settle(ok));
}

/** Lets pending promises and timers of 0 ms run, so a navigation that did not wait would have happened. */
export const flushTimers = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
