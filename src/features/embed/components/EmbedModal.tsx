import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { Modal } from "../../../ui/Modal";
import {
  clampStep,
  DEFAULT_EMBED_OPTIONS,
  type EmbedChrome,
  type EmbedOptions,
  embedQuery,
} from "../../presentation/embed-options";
import { COPY_SUCCESS_MS } from "../../share/share";
import {
  DEFAULT_EMBED,
  EMBED_INPUT_MAX_LENGTH,
  EMBED_MODAL_MAX_WIDTH,
  type EmbedSettings,
  embedSnippet,
  fromHeight,
  fromWidth,
  responsiveEmbedSnippet,
} from "../embed-dimensions";

/**
 * Spec §2 embed modal: width and height kept at 16:9 (§5), the iframe code and a copy button
 * that shows success for 3 s and then calls onCopy (§4). When only responsive dimensions are
 * allowed, an explanation replaces the inputs. Issue 34: responsive code by default (the deck's
 * page shape), a fixed size as the other choice, and the embed options (embed-options.ts); the
 * code follows every change.
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
  pageAspect = 16 / 9,
  stepCount = 1,
}: {
  open: boolean;
  onClose: () => void;
  oid: string;
  title: string;
  origin: string;
  onCopy: () => void;
  responsiveOnly?: boolean;
  learnMoreUrl?: string | null;
  /** Issue 34: the deck's page shape (width ÷ height), which the responsive code keeps. */
  pageAspect?: number;
  /** Issue 34: the deck's steps, the start step's range. */
  stepCount?: number;
}) {
  const intl = useIntl();
  const [settings, setSettings] = useState<EmbedSettings>(DEFAULT_EMBED);
  const [fixed, setFixed] = useState(false);
  const [options, setOptions] = useState<EmbedOptions>(DEFAULT_EMBED_OPTIONS);
  const [startText, setStartText] = useState("1");
  const option = <K extends keyof EmbedOptions>(name: K, value: EmbedOptions[K]) =>
    setOptions((current) => ({ ...current, [name]: value }));
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const query = embedQuery(options);
  const code =
    fixed && !responsiveOnly
      ? embedSnippet(origin, oid, settings, title, query)
      : responsiveEmbedSnippet(origin, oid, pageAspect, title, query, options.controls);

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
      {responsiveOnly ? (
        <>
          <h3 className="embed-modal__section">
            <FormattedMessage id="embed.dimensions" />
          </h3>
          <p className="embed-modal__responsive">
            <FormattedMessage id="embed.responsive" />{" "}
            {learnMoreUrl ? (
              <a href={learnMoreUrl}>
                <FormattedMessage id="embed.learnMore" />
              </a>
            ) : null}
          </p>
        </>
      ) : (
        <fieldset className="embed-modal__group">
          <legend className="embed-modal__section">
            <FormattedMessage id="embed.dimensions" />
          </legend>
          <div className="embed-modal__choices">
            <label>
              <input type="radio" name="embed-size" checked={!fixed} onChange={() => setFixed(false)} />
              <FormattedMessage id="embed.sizeResponsive" />
            </label>
            <label>
              <input type="radio" name="embed-size" checked={fixed} onChange={() => setFixed(true)} />
              <FormattedMessage id="embed.sizeFixed" />
            </label>
          </div>
          {fixed ? (
            <div className="embed-modal__dimensions">
              <PixelField label="embed.width" value={settings.width} onChange={(v) => setSettings(fromWidth(v))} />
              <span aria-hidden="true">×</span>
              <PixelField label="embed.height" value={settings.height} onChange={(v) => setSettings(fromHeight(v))} />
              <span id="embed-pixels">
                <FormattedMessage id="embed.pixels" />
              </span>
            </div>
          ) : null}
        </fieldset>
      )}
      <fieldset className="embed-modal__group">
        <legend className="embed-modal__section">
          <FormattedMessage id="embed.options" />
        </legend>
        <div className="embed-modal__options">
          <label className="embed-modal__field">
            <FormattedMessage id="embed.start" values={{ total: stepCount }} />
            <input
              type="number"
              min={1}
              max={stepCount}
              value={startText}
              onChange={(event) => {
                const text = event.currentTarget.value;
                setStartText(text);
                option("start", clampStep(text, stepCount));
              }}
              onBlur={() => setStartText(String(options.start))}
            />
          </label>
          <label className="embed-modal__field">
            <FormattedMessage id="embed.chrome" />
            <select
              value={options.chrome}
              onChange={(event) => option("chrome", event.currentTarget.value as EmbedChrome)}
            >
              <option value="dark">{intl.formatMessage({ id: "embed.chromeDark" })}</option>
              <option value="light">{intl.formatMessage({ id: "embed.chromeLight" })}</option>
            </select>
          </label>
          {(
            [
              ["autoplay", "embed.autoplay"],
              ["loop", "embed.loop"],
              ["controls", "embed.controls"],
              ["title", "embed.showTitle"],
            ] as const
          ).map(([name, label]) => (
            <label key={name} className="embed-modal__check">
              <input
                type="checkbox"
                checked={options[name]}
                onChange={(event) => option(name, event.currentTarget.checked)}
              />
              <FormattedMessage id={label} />
            </label>
          ))}
        </div>
      </fieldset>
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

/** R5.1: a fixed size's width or height, in pixels (digits only, at most EMBED_INPUT_MAX_LENGTH). */
function PixelField({
  label,
  value,
  onChange,
}: {
  label: "embed.width" | "embed.height";
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      <FormattedMessage id={label} />
      <input
        inputMode="numeric"
        value={value}
        maxLength={EMBED_INPUT_MAX_LENGTH}
        onChange={(event) => onChange(event.currentTarget.value)}
        aria-describedby="embed-pixels"
      />
    </label>
  );
}
