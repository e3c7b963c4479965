import { type ReactNode, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { FeatureFlags } from "../../../lib/features";
import { readFeature } from "../../../lib/features";
import { followAfterLog } from "../../../lib/redirect";
import { trackEvent } from "../../events/client";
import { ctaLog } from "../../events/log-calls";
import { VIEWER_EVENTS } from "../../events/usage-event";

/** Spec §3 CTA log: cta_text is the text the visitor clicked, as shown (in the page's language). */
function shownText(element: HTMLElement): string {
  let text = "";
  // What the visitor sees: words only a screen reader hears (visually-hidden) are not logged.
  for (const node of element.childNodes)
    if (!(node instanceof HTMLElement && node.classList.contains("visually-hidden"))) text += node.textContent ?? "";
  return text.replace(/\s+/g, " ").trim();
}

/** Spec §6: the banner's wording follows these two flags. */
export const BANNER_FLAGS = {
  humanConnection: "gm-view-page-banner-human-connection",
  humanConnectionEdu: "gm-view-page-banner-human-connection-edu",
} as const;

export function bannerVariant(features: FeatureFlags): "default" | "humanConnection" | "humanConnectionEdu" {
  if (readFeature(features, BANNER_FLAGS.humanConnectionEdu)) return "humanConnectionEdu";
  if (readFeature(features, BANNER_FLAGS.humanConnection)) return "humanConnection";
  return "default";
}

/** A promotion's call to action: a link whose click is logged (spec §4 cta_clicked) before it is followed. */
function CtaLink({
  className,
  href,
  oid,
  place,
  kind,
  children,
}: {
  className: string;
  href: string;
  oid: string;
  place: Parameters<typeof ctaLog>[0];
  kind: Parameters<typeof ctaLog>[2];
  children: ReactNode;
}) {
  return (
    <a
      className={className}
      href={href}
      onClick={(event) =>
        followAfterLog(
          event,
          trackEvent(VIEWER_EVENTS.ctaClicked, { oid, ...ctaLog(place, shownText(event.currentTarget), kind, href) }),
        )
      }
    >
      {children}
    </a>
  );
}

/** Spec §2, §4: the top video banner, visible until closed (the choice is not remembered). */
export function VideoBanner({ features, oid }: { features: FeatureFlags; oid: string }) {
  const intl = useIntl();
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const variant = bannerVariant(features);
  const href = variant === "humanConnectionEdu" ? "/edu/prezi-video-edu" : "/video";
  return (
    <aside className="video-banner" aria-label={intl.formatMessage({ id: "banner.label" })}>
      <p>
        <FormattedMessage id={`banner.${variant}`} />
      </p>
      <CtaLink className="video-banner__link" href={href} oid={oid} place="video_banner" kind="LINK">
        <FormattedMessage id="banner.learnMore" />
        {/* Issue 30 (Lighthouse link-text): the link says what it leads to, the visible words first. */}{" "}
        <span className="visually-hidden">
          <FormattedMessage id="banner.learnMoreTarget" />
        </span>
      </CtaLink>
      <button
        type="button"
        className="video-banner__close"
        onClick={() => setOpen(false)}
        aria-label={intl.formatMessage({ id: "banner.close" })}
      >
        ×
      </button>
    </aside>
  );
}

/** Spec §2: the bottom band invites visitors to learn more; its button leads to /product/ signed in, / otherwise. */
export function BottomBand({ isAuthenticated, oid }: { isAuthenticated: boolean; oid: string }) {
  const href = isAuthenticated ? "/product/" : "/";
  return (
    <section className="bottom-band" aria-labelledby="bottom-band-title">
      <h2 id="bottom-band-title">
        <FormattedMessage id="band.title" />
      </h2>
      <p>
        <FormattedMessage id="band.lead" />
      </p>
      <CtaLink className="button button--primary" href={href} oid={oid} place="bottom_band" kind="BUTTON">
        <FormattedMessage id="band.button" />
      </CtaLink>
    </section>
  );
}
