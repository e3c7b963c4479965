/** Spec §7 share by social network, §9 sizes and networks. */

export const SOCIAL_NETWORKS = ["FACEBOOK", "LINKEDIN", "TWITTER", "GOOGLE_CLASSROOM"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Spec §9: share popups are 520×570, LinkedIn's 1300×570, centred on the screen. */
export const SHARE_POPUP_SIZE = { width: 520, height: 570 } as const;
export const LINKEDIN_POPUP_SIZE = { width: 1300, height: 570 } as const;
/** Spec §9: the share modal is 500×300. */
export const SHARE_MODAL_SIZE = { width: 500, height: 300 } as const;
/** Spec §9: the copy-success message shows for 3 s. */
export const COPY_SUCCESS_MS = 3000;

export interface ShareTarget {
  url: string;
  title: string;
  /** Spec §3: tags as a comma-separated string. */
  tags: string;
}

/** "a, b c,d" → "a,bc,d": hashtags have no spaces. */
export function hashtagsOf(tags: string): string {
  return tags
    .split(",")
    .map((tag) => tag.replace(/[^\p{L}\p{N}_]/gu, ""))
    .filter(Boolean)
    .join(",");
}

/** The provider's share URL: the text goes as `text` with comma-joined hashtags; Classroom gets url and title only. */
export function shareUrlFor(network: SocialNetwork, target: ShareTarget): string {
  const url = encodeURIComponent(target.url);
  const text = encodeURIComponent(target.title);
  const hashtags = hashtagsOf(target.tags);
  switch (network) {
    case "FACEBOOK":
      return `https://www.facebook.com/sharer/sharer.php?u=${url}`;
    case "LINKEDIN":
      return `https://www.linkedin.com/sharing/share-offsite/?url=${url}`;
    case "TWITTER":
      return `https://twitter.com/intent/tweet?url=${url}&text=${text}${hashtags ? `&hashtags=${encodeURIComponent(hashtags)}` : ""}`;
    case "GOOGLE_CLASSROOM":
      return `https://classroom.google.com/share?url=${url}&title=${text}`;
  }
}

/** Window features for a popup of the network's size, centred on the screen. */
export function popupFeatures(
  network: SocialNetwork,
  screen: { width: number; height: number; left?: number; top?: number },
): string {
  const size = network === "LINKEDIN" ? LINKEDIN_POPUP_SIZE : SHARE_POPUP_SIZE;
  const left = Math.max(0, Math.round((screen.left ?? 0) + (screen.width - size.width) / 2));
  const top = Math.max(0, Math.round((screen.top ?? 0) + (screen.height - size.height) / 2));
  return `width=${size.width},height=${size.height},left=${left},top=${top},noopener,noreferrer`;
}
