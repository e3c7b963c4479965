import { useSession } from "../../../ui/session";
import { trackEvent } from "../../events/client";
import { NATIVE_LOG_EVENTS } from "../../events/log-calls";
import { LikeButton } from "../../likes/components/LikeButton";
import { sendLike } from "../../likes/like-client";
import { DownloadLinks } from "../../presentation/components/DownloadLinks";
import { PrivateViewPage } from "../../presentation/components/PrivateViewPage";
import type { PresentationPageData } from "../../presentation/page-data";
import { signupPathFor } from "./PresentationPage";

/**
 * The private view page opened through a view link (`/view/{linkId}/`), with its like button
 * (R7.2): a like goes through the link, PUT/DELETE /api/v4/presentation/like/?auth_key=&key_type=
 * (spec §7), so a visitor who may see the deck only through the link can like it.
 */
export function ViewLinkPage({ data }: { data: PresentationPageData }) {
  const session = useSession();
  const link = data.viewLink;
  const like = async (liked: boolean) => {
    if (!link) return;
    await sendLike({ viewLinkId: link.link_id, keyType: link.key_type }, liked, {
      preproduction: session.environment === "preproduction",
    });
    void trackEvent(liked ? NATIVE_LOG_EVENTS.like : NATIVE_LOG_EVENTS.unlike, { oid: data.oid });
  };
  const actions = link ? (
    <>
      <LikeButton
        oid={data.oid}
        likesCount={data.likesCount}
        hasLiked={data.hasLikedPrezi}
        isAuthenticated={data.isAuthenticated}
        // Spec §4: signed out, a like sends the visitor to sign up and back here.
        onLoggedOutLike={() => window.location.assign(signupPathFor(window.location.pathname))}
        sendLike={like}
      />
      <DownloadLinks downloads={data.downloads} />
    </>
  ) : null;
  return <PrivateViewPage data={data} actions={actions} />;
}
