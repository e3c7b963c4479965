import { basicAuthorizationFrom, sendWithCsrf } from "../../lib/http-client";

/** Spec §7: where the like calls go, by oid or through a view link. */
export function likeUrl(target: { oid: string } | { viewLinkId: string; keyType: string }): string {
  if ("oid" in target) return `/api/v4/presentation/${encodeURIComponent(target.oid)}/like/`;
  const query = new URLSearchParams({ auth_key: target.viewLinkId, key_type: target.keyType });
  return `/api/v4/presentation/like/?${query}`;
}

/**
 * R7.3: the absolute address of a like call, built on the page's origin. The origin never carries
 * credentials, so the call works on a pre-production page opened as `http://qa:secret@host/…`,
 * where a relative URL resolves against the credentialed document URL and fetch refuses it.
 */
export function likeRequestUrl(
  target: { oid: string } | { viewLinkId: string; keyType: string },
  location: Pick<Location, "origin">,
): string {
  return `${location.origin}${likeUrl(target)}`;
}

/** Likes (PUT) or unlikes (DELETE) from the browser with the CSRF header; rejects with the status text. */
export async function sendLike(
  target: { oid: string } | { viewLinkId: string; keyType: string },
  liked: boolean,
  environment: { preproduction: boolean },
): Promise<void> {
  await sendWithCsrf(liked ? "PUT" : "DELETE", likeRequestUrl(target, window.location), {
    cookies: document.cookie,
    // Spec §7: on pre-production, Basic authorization from the credentials in the page's address.
    // R7.3: Chromium leaves them out of location.href; document.URL keeps them.
    authorization: environment.preproduction ? basicAuthorizationFrom(document.URL) : null,
  });
}
