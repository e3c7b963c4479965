/** Spec §7, §9: the redirect helper waits for a promise to settle, or 500 ms by default. */
export const REDIRECT_WAIT_MS = 500;

/**
 * Navigates after the promise settles (success or failure: spec §4, a logged navigation waits
 * for its log call, then goes on whatever happened), or after the default wait without one.
 */
export async function redirectAfter(
  navigate: (url: string) => void,
  url: string,
  settle?: Promise<unknown>,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  if (settle)
    await settle.then(
      () => undefined,
      () => undefined,
    );
  else await wait(REDIRECT_WAIT_MS);
  navigate(url);
}
