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

/** What followAfterLog needs of a click on a link (a React or a DOM mouse event). */
export interface LinkClick {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  preventDefault(): void;
  currentTarget: { href: string; target: string } | EventTarget | null;
}

/**
 * Spec §4: a logged navigation waits for its log call to settle (success or failure), then
 * navigates. A click the browser handles itself (new tab or window, a download) still logs but
 * keeps its default.
 */
export function followAfterLog(
  click: LinkClick,
  log: Promise<unknown>,
  navigate: (url: string) => void = (url) => window.location.assign(url),
): void {
  const link = click.currentTarget as { href?: unknown; target?: unknown } | null;
  const href = typeof link?.href === "string" ? link.href : null;
  const ownWindow = !link?.target || link.target === "_self";
  if (click.defaultPrevented || !href || !ownWindow) return;
  if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return;
  click.preventDefault();
  void redirectAfter(navigate, href, log);
}
