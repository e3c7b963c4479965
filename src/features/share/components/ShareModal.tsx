import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { Modal } from "../../../ui/Modal";
import {
  COPY_SUCCESS_MS,
  popupFeatures,
  SHARE_MODAL_SIZE,
  type ShareTarget,
  SOCIAL_NETWORKS,
  type SocialNetwork,
  shareUrlFor,
} from "../share";

/** Issue 34 item 5: a step's own address, `?step=N` on the view page. */
export function stepUrl(url: string, step: number): string {
  const parsed = new URL(url, "http://relative.invalid");
  parsed.searchParams.set("step", String(step));
  parsed.hash = "";
  return parsed.origin === "http://relative.invalid" ? `${parsed.pathname}${parsed.search}` : parsed.href;
}

const NETWORK_LABEL: Record<SocialNetwork, MessageId> = {
  FACEBOOK: "share.facebook",
  LINKEDIN: "share.linkedin",
  TWITTER: "share.twitter",
  GOOGLE_CLASSROOM: "share.classroom",
};

/**
 * Spec §2 share modal: the four networks and the link with a copy button (§4: 3 s of success).
 * onShare and onCopyLink let the page log the share and the copy (§7 native logging calls).
 */
export function ShareModal({
  open,
  onClose,
  target,
  onShare,
  onCopyLink,
}: {
  open: boolean;
  onClose: () => void;
  target: ShareTarget;
  onShare?: (network: SocialNetwork) => void;
  onCopyLink?: () => void;
}) {
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  // Issue 34 item 5: while a step plays (`#step=N` in the address), the link may name that step
  // (`?step=N`, which the server sees: its preview card shows that step's title and slide).
  const [step, setStep] = useState<number | null>(null);
  const [toStep, setToStep] = useState(true);
  useEffect(() => {
    if (!open) return;
    const match = /(?:^#|&)step=(\d{1,6})(?:&|$)/.exec(window.location.hash);
    setStep(match?.[1] && Number(match[1]) > 1 ? Number(match[1]) : null);
  }, [open]);
  const url = step && toStep ? stepUrl(target.url, step) : target.url;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Without clipboard access the link stays selected in the field for a manual copy.
      document.getElementById("share-link")?.focus();
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_SUCCESS_MS);
    onCopyLink?.();
  };

  const openNetwork = (network: SocialNetwork) => {
    window.open(
      shareUrlFor(network, { ...target, url }),
      `podium-share-${network}`,
      popupFeatures(network, window.screen),
    );
    onShare?.(network);
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={intl.formatMessage({ id: "share.title" })}
      maxWidth={SHARE_MODAL_SIZE.width}
      minHeight={SHARE_MODAL_SIZE.height}
      className="share-modal"
    >
      <ul className="share-networks">
        {SOCIAL_NETWORKS.map((network) => (
          <li key={network}>
            <button
              type="button"
              className={`share-network share-network--${network.toLowerCase()}`}
              onClick={() => openNetwork(network)}
              title={intl.formatMessage(
                { id: "share.tooltip" },
                { network: intl.formatMessage({ id: NETWORK_LABEL[network] }) },
              )}
            >
              <FormattedMessage id={NETWORK_LABEL[network]} />
            </button>
          </li>
        ))}
      </ul>
      <label htmlFor="share-link" className="share-link__label">
        <FormattedMessage id="share.link" />
      </label>
      {step ? (
        <label className="share-link__step">
          <input type="checkbox" checked={toStep} onChange={(event) => setToStep(event.currentTarget.checked)} />
          <FormattedMessage id="share.stepLink" values={{ step }} />
        </label>
      ) : null}
      <div className="share-link">
        <input id="share-link" type="text" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button button--primary" onClick={() => void copy()} disabled={copied}>
          <FormattedMessage id={copied ? "share.copied" : "share.copy"} />
        </button>
        {copied ? (
          <span className="share-link__tooltip" role="status">
            <FormattedMessage id="share.copiedTooltip" />
          </span>
        ) : null}
      </div>
    </Modal>
  );
}
