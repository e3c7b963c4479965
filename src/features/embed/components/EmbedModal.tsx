import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { Modal } from "../../../ui/Modal";
import { COPY_SUCCESS_MS } from "../../share/share";
import {
  DEFAULT_EMBED,
  EMBED_INPUT_MAX_LENGTH,
  EMBED_MODAL_MAX_WIDTH,
  type EmbedSettings,
  embedSnippet,
  fromHeight,
  fromWidth,
} from "../embed-dimensions";

/**
 * Spec §2 embed modal: width and height kept at 16:9 (§5), the iframe code and a copy button
 * that shows success for 3 s and then calls onCopy (§4). When only responsive dimensions are
 * allowed, an explanation replaces the inputs.
 */
export function EmbedModal({
  open,
  onClose,
  oid,
  title,
  origin,
  onCopy,
  responsiveOnly = false,
  learnMoreUrl = null,
}: {
  open: boolean;
  onClose: () => void;
  oid: string;
  title: string;
  origin: string;
  onCopy: () => void;
  responsiveOnly?: boolean;
  learnMoreUrl?: string | null;
}) {
  const intl = useIntl();
  const [settings, setSettings] = useState<EmbedSettings>(DEFAULT_EMBED);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const code = embedSnippet(origin, oid, responsiveOnly ? "responsive" : settings, title);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      document.getElementById("embed-code")?.focus();
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setCopied(false);
      onCopy();
    }, COPY_SUCCESS_MS);
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={intl.formatMessage({ id: "embed.header" })}
      maxWidth={EMBED_MODAL_MAX_WIDTH}
      className="embed-modal"
    >
      <h3 className="embed-modal__section">
        <FormattedMessage id="embed.dimensions" />
      </h3>
      {responsiveOnly ? (
        <p className="embed-modal__responsive">
          <FormattedMessage id="embed.responsive" />{" "}
          {learnMoreUrl ? (
            <a href={learnMoreUrl}>
              <FormattedMessage id="embed.learnMore" />
            </a>
          ) : null}
        </p>
      ) : (
        <div className="embed-modal__dimensions">
          <label>
            <FormattedMessage id="embed.width" />
            <input
              inputMode="numeric"
              value={settings.width}
              maxLength={EMBED_INPUT_MAX_LENGTH}
              onChange={(event) => setSettings(fromWidth(event.currentTarget.value))}
              aria-describedby="embed-pixels"
            />
          </label>
          <span aria-hidden="true">×</span>
          <label>
            <FormattedMessage id="embed.height" />
            <input
              inputMode="numeric"
              value={settings.height}
              maxLength={EMBED_INPUT_MAX_LENGTH}
              onChange={(event) => setSettings(fromHeight(event.currentTarget.value))}
              aria-describedby="embed-pixels"
            />
          </label>
          <span id="embed-pixels">
            <FormattedMessage id="embed.pixels" />
          </span>
        </div>
      )}
      <h3 className="embed-modal__section">
        <label htmlFor="embed-code">
          <FormattedMessage id="embed.code" />
        </label>
      </h3>
      <textarea
        id="embed-code"
        className="embed-modal__code"
        readOnly
        value={code}
        rows={4}
        onFocus={(event) => event.currentTarget.select()}
      />
      <button type="button" className="button button--primary" onClick={() => void copy()} disabled={copied}>
        <FormattedMessage id={copied ? "embed.copied" : "embed.copy"} />
      </button>
    </Modal>
  );
}
