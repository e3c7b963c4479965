/**
 * Issue 12: why a visitor was sent to sign up or log in, so the page can say so ("Sign up to like
 * this presentation"). It travels as `reason=` beside `next=`; anything else is no reason.
 */
export const SIGN_IN_REASONS = ["like"] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

export function signInReasonOf(value: unknown): SignInReason | null {
  return SIGN_IN_REASONS.find((reason) => reason === value) ?? null;
}

/** An account page's address with where to go next and why (both optional). */
export function accountPath(page: "/signup/" | "/login/", next: string, reason: SignInReason | null): string {
  const query = new URLSearchParams();
  if (next !== "/") query.set("next", next);
  if (reason) query.set("reason", reason);
  const search = query.toString();
  return search ? `${page}?${search}` : page;
}
