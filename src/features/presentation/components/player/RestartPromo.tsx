import { type ReactNode, useId } from "react";
import { FormattedMessage, useIntl } from "../../../../i18n/intl";

/**
 * The restart overlay's promotional variant (spec §2, R2.29): a short video ad and a
 * get-the-product call to action. The "video" is drawn here (an animated SVG, no network, no
 * audio): slides fly in and settle on a canvas, then the camera zooms into one. It plays once,
 * in under 5 s (WCAG 2.2.2 needs no pause control), and stands still for reduced motion.
 * Issue 28: it fits every player size (player.css): the ad scales to the room left by the Restart
 * button (`children`), the title and the call to action, beside them on a short player.
 */
export function RestartPromo({ ctaUrl, children }: { ctaUrl: string; children: ReactNode }) {
  const intl = useIntl();
  // The ad's box may be wider or taller than its 16:9 drawing: the zoom stays inside the frame.
  const frame = useId();
  return (
    <div className="restart-promo">
      {children}
      <svg
        className="restart-promo__video"
        viewBox="0 0 320 180"
        role="img"
        aria-label={intl.formatMessage({ id: "player.promo.video" })}
      >
        <clipPath id={frame}>
          <rect width="320" height="180" rx="10" />
        </clipPath>
        <rect width="320" height="180" rx="10" fill="#1f2a5a" />
        <g clipPath={`url(#${frame})`}>
          <g className="restart-promo__camera">
            <rect
              className="restart-promo__slide restart-promo__slide--1"
              x="28"
              y="30"
              width="110"
              height="62"
              rx="6"
              fill="#ffffff"
            />
            <rect
              className="restart-promo__slide restart-promo__slide--2"
              x="182"
              y="24"
              width="110"
              height="62"
              rx="6"
              fill="#ffd166"
            />
            <rect
              className="restart-promo__slide restart-promo__slide--3"
              x="105"
              y="100"
              width="110"
              height="62"
              rx="6"
              fill="#7bdff2"
            />
            <rect x="40" y="44" width="70" height="8" rx="4" fill="#1f2a5a" className="restart-promo__slide--1" />
            <rect x="40" y="58" width="50" height="6" rx="3" fill="#6b7394" className="restart-promo__slide--1" />
          </g>
        </g>
      </svg>
      <p className="restart-promo__title">
        <FormattedMessage id="player.promo.title" />
      </p>
      <a className="overlay__present overlay__present--small restart-promo__cta" href={ctaUrl}>
        <FormattedMessage id="player.promo.cta" />
      </a>
    </div>
  );
}
