import { basicAuthorizationFrom, sendWithCsrf } from "../../lib/http-client";

/** Spec §7: where the like calls go, by oid or through a view link. */
export function likeUrl(target: { oid: string } | { viewLinkId: string; keyType: string }): string {
  if ("oid" in target) return `/api/v4/presentation/${encodeURIComponent(target.oid)}/like/`;
  const query = new URLSearchParams({ auth_key: target.viewLinkId, key_type: target.keyType });
  return `/api/v4/presentation/like/?${query}`;
}

/** Likes (PUT) or unlikes (DELETE) from the browser with the CSRF header; rejects with the status text. */
export async function sendLike(
  target: { oid: string } | { viewLinkId: string; keyType: string },
  liked: boolean,
  environment: { preproduction: boolean },
): Promise<void> {
  await sendWithCsrf(liked ? "PUT" : "DELETE", likeUrl(target), {
    cookies: document.cookie,
    authorization: environment.preproduction ? basicAuthorizationFrom(window.location.href) : null,
  });
}
