import { type DragEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { MessageLabel, SubmitButton } from "../../../ui/Form";
import { CsrfField, useSession } from "../../../ui/session";
import { PDF_MAX_PAGES } from "../errors";
import { type ImportPhase, isPdfFile, sendImport } from "./import-upload";
import "./import-drop-zone.css";

const PRIVACIES = ["public", "reusable", "unlisted", "private"] as const;
type Privacy = (typeof PRIVACIES)[number];
/** The two styles (schema versions) and their names and hints. */
const STYLES = [
  ["2", "dashboard.import.stylePitch", "pdfImport.stylePitchHint"],
  ["0", "dashboard.import.styleClassic", "pdfImport.styleClassicHint"],
] as const;
type Style = (typeof STYLES)[number][0];

/**
 * The dashboard's "New presentation" form (issue 10, items 4 and 6): a drop zone around a real,
 * labelled file input, the title, who can see it and the style. With JavaScript, the file is sent
 * by XHR and two progress bars say how far it is: the upload (bytes), then for a PDF the
 * conversion (pages done of pages); the deck opens when it is ready. Without JavaScript it is a
 * plain form posting Markdown or JSON to the dashboard, as before.
 */
export function ImportDropZone({
  action,
  replaceOid,
  title,
  lead,
  compact = false,
  children,
}: {
  action: string;
  /** The editor's variant: a PDF replaces this deck's slides (no title, privacy or style to choose). */
  replaceOid?: string;
  /** The card's heading and lead, when it says more than "New presentation" (a first deck, issue 28). */
  title?: MessageId;
  lead?: MessageId;
  /** Issue 28, item 3: below a list of decks the card is small (no lead: the zone's hint says what it takes; a slimmer zone). */
  compact?: boolean;
  /** Other ways to start, shown under the form inside the same card (a template). */
  children?: ReactNode;
}) {
  const replacing = replaceOid !== undefined;
  const intl = useIntl();
  const { csrfToken } = useSession();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [privacy, setPrivacy] = useState<Privacy>("public");
  const [style, setStyle] = useState<Style>("2");
  const [phase, setPhase] = useState<ImportPhase>({ kind: "idle" });
  const [announcement, setAnnouncement] = useState("");
  const ids = useId();
  // Until the page runs its script (and without JavaScript, always), a note says PDFs need it.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const busy = phase.kind === "uploading" || phase.kind === "converting" || phase.kind === "opening";

  /** A file's size as people read it: kB below a megabyte, MB above (one decimal below 10 MB). */
  const megabytes = (bytes: number) =>
    bytes < 1024 * 1024
      ? intl.formatNumber(Math.max(bytes > 0 ? 1 : 0, Math.round(bytes / 1024)), {
          style: "unit",
          unit: "kilobyte",
          unitDisplay: "short",
        })
      : intl.formatNumber(bytes / (1024 * 1024), {
          style: "unit",
          unit: "megabyte",
          unitDisplay: "short",
          maximumFractionDigits: bytes < 10 * 1024 * 1024 ? 1 : 0,
        });

  // Screen readers hear each phase once, and the conversion at every quarter.
  const lastQuarter = useRef(-1);
  useEffect(() => {
    if (phase.kind === "uploading" && phase.loaded === 0) {
      setAnnouncement(intl.formatMessage({ id: "pdfImport.uploading" }, { name: phase.name }));
    } else if (phase.kind === "converting" && phase.ahead !== null) {
      if (lastQuarter.current !== -2) {
        lastQuarter.current = -2;
        setAnnouncement(intl.formatMessage({ id: "pdfImport.waiting" }, { ahead: phase.ahead }));
      }
    } else if (phase.kind === "converting" && phase.pageCount > 0) {
      const quarter = Math.floor((phase.pagesDone / phase.pageCount) * 4);
      if (quarter !== lastQuarter.current) {
        lastQuarter.current = quarter;
        setAnnouncement(
          intl.formatMessage({ id: "pdfImport.pages" }, { done: phase.pagesDone, total: phase.pageCount }),
        );
      }
    } else if (phase.kind === "opening") {
      setAnnouncement(intl.formatMessage({ id: "pdfImport.opening" }));
    }
  }, [phase, intl]);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (phase.kind === "failed") setPhase({ kind: "idle" });
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files;
    if (!dropped.length || busy || !input.current) return;
    // The dropped file becomes the input's own, so the form (and the page without JavaScript) sees one file.
    try {
      input.current.files = dropped;
    } catch {
      // An old browser's read-only FileList: the upload below still takes the dropped file.
    }
    choose(dropped[0] ?? null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    const chosen = input.current?.files?.[0] ?? file;
    if (!chosen || !form.current || typeof XMLHttpRequest === "undefined") return;
    event.preventDefault();
    if (busy) return;
    if (replacing && !isPdfFile(chosen)) {
      setPhase({ kind: "failed", messageId: "pdfImport.error.notPdf", text: null, values: {} });
      return;
    }
    lastQuarter.current = -1;
    const target = await sendImport(form.current, chosen, csrfToken, setPhase);
    if (target) window.location.assign(target);
  };

  const pdfChosen = file ? isPdfFile(file) : false;
  const uploadLabel = `${ids}-upload`;
  const convertLabel = `${ids}-convert`;

  return (
    <section className={`panel import-panel${compact ? " import-panel--compact" : ""}`} aria-labelledby="import-title">
      <h2 id="import-title">
        <FormattedMessage id={replacing ? "pdfImport.replace.title" : (title ?? "dashboard.import.title")} />
      </h2>
      {compact ? null : (
        <p className="dashboard__lead">
          <FormattedMessage id={replacing ? "pdfImport.replace.lead" : (lead ?? "pdfImport.lead")} />
        </p>
      )}
      <form
        ref={form}
        method="post"
        action={action}
        encType="multipart/form-data"
        className="import-form"
        onSubmit={(event) => void submit(event)}
        aria-busy={busy || undefined}
      >
        <CsrfField />
        {replacing ? <input type="hidden" name="replace" value={replaceOid} /> : null}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the labelled file input inside is the keyboard's way */}
        <div
          className={`drop-zone${over ? " drop-zone--over" : ""}${file ? " drop-zone--chosen" : ""}`}
          onDragEnter={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragOver={(event) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = "copy";
          }}
          onDragLeave={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
          }}
          onDrop={drop}
        >
          <svg className="drop-zone__icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
            <path
              d="M14 6h14l10 10v24a2 2 0 0 1-2 2H14a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2Z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinejoin="round"
            />
            <path d="M28 6v10h10" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" />
            <path
              d="M25 36V22m-6 6 6-6 6 6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <div className="drop-zone__body">
            <p className="drop-zone__title" aria-hidden="true">
              <FormattedMessage id="pdfImport.drop" />
            </p>
            <label htmlFor="import-file" className="drop-zone__label">
              <FormattedMessage id={replacing ? "pdfImport.replace.file" : "pdfImport.file"} />
            </label>
            <input
              ref={input}
              id="import-file"
              name="file"
              type="file"
              accept={
                replacing
                  ? ".pdf,application/pdf"
                  : ".md,.markdown,.txt,.json,.pdf,text/markdown,text/plain,application/json,application/pdf"
              }
              required
              aria-describedby={`${ids}-hint`}
              onChange={(event) => choose(event.target.files?.[0] ?? null)}
              disabled={busy}
            />
            <p id={`${ids}-hint`} className="drop-zone__hint">
              <FormattedMessage
                id={replacing ? "pdfImport.replace.hint" : "pdfImport.hint"}
                values={{ pages: PDF_MAX_PAGES }}
              />
            </p>
            {file ? (
              <p className="drop-zone__file">
                <FormattedMessage
                  id={pdfChosen ? "pdfImport.chosenPdf" : "pdfImport.chosen"}
                  values={{ name: file.name, size: megabytes(file.size) }}
                />
              </p>
            ) : null}
            {scripted ? null : (
              <p className="drop-zone__hint">
                <FormattedMessage id="pdfImport.noscript" />
              </p>
            )}
          </div>
        </div>

        {/* Issue 28, item 3: the choices wait behind one line that says what they are now, so the zone comes first. */}
        <details className="import-form__more" hidden={replacing}>
          <summary>
            <FormattedMessage
              id="pdfImport.options"
              values={{
                privacy: intl.formatMessage({ id: `privacy.${privacy}` as MessageId }),
                style: intl.formatMessage({ id: STYLES.find(([value]) => value === style)?.[1] ?? STYLES[0][1] }),
              }}
            />
          </summary>
          <div className="import-form__options">
            <div className="field">
              <MessageLabel htmlFor="import-title-field" message="dashboard.import.titleField" />
              <input id="import-title-field" name="title" type="text" maxLength={200} disabled={busy} />
            </div>
            <div className="field">
              <MessageLabel htmlFor="import-privacy" message="dashboard.privacy" />
              <select
                id="import-privacy"
                name="privacy"
                value={privacy}
                onChange={(event) => setPrivacy(event.target.value as Privacy)}
                aria-describedby={`${ids}-privacy-hint`}
                disabled={busy}
              >
                {PRIVACIES.map((value) => (
                  <option key={value} value={value}>
                    {intl.formatMessage({ id: `privacy.${value}` as MessageId })}
                  </option>
                ))}
              </select>
              <p id={`${ids}-privacy-hint`} className="field__hint">
                <FormattedMessage id={`pdfImport.privacyHint.${privacy}` as MessageId} />
              </p>
            </div>
          </div>

          <fieldset className="style-choice" disabled={busy}>
            <legend>
              <FormattedMessage id="dashboard.import.style" />
            </legend>
            <div className="style-choice__options">
              {STYLES.map(([value, label, hint]) => (
                <label key={value} className="style-choice__option">
                  <input
                    type="radio"
                    name="schemaVersion"
                    value={value}
                    checked={style === value}
                    onChange={() => setStyle(value)}
                  />
                  <span className="style-choice__text">
                    <span className="style-choice__name">
                      <FormattedMessage id={label} />
                    </span>
                    <span className="style-choice__hint">
                      <FormattedMessage id={hint} />
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </details>

        <div className="import-form__actions">
          <SubmitButton pending={busy}>
            <FormattedMessage id={replacing ? "pdfImport.replace.submit" : "dashboard.import.submit"} />
          </SubmitButton>
        </div>

        {phase.kind !== "idle" && phase.kind !== "failed" ? (
          <div className="import-progress">
            <ProgressBar
              labelId={uploadLabel}
              label={intl.formatMessage({ id: "pdfImport.uploading" }, { name: phase.name })}
              value={phase.kind === "uploading" ? phase.loaded : phase.total}
              max={phase.total}
              valueText={intl.formatMessage(
                { id: "pdfImport.bytes" },
                {
                  loaded: megabytes(phase.kind === "uploading" ? phase.loaded : phase.total),
                  total: megabytes(phase.total),
                },
              )}
              done={phase.kind !== "uploading"}
            />
            {phase.kind === "converting" || (phase.kind === "opening" && phase.pdf) ? (
              <ProgressBar
                labelId={convertLabel}
                label={intl.formatMessage({ id: "pdfImport.converting" })}
                value={phase.kind === "converting" ? phase.pagesDone : phase.pageCount}
                max={Math.max(1, phase.pageCount)}
                valueText={
                  phase.kind === "converting" && phase.ahead !== null
                    ? intl.formatMessage({ id: "pdfImport.waiting" }, { ahead: phase.ahead })
                    : phase.pageCount > 0
                      ? intl.formatMessage(
                          { id: "pdfImport.pages" },
                          {
                            done: phase.kind === "converting" ? phase.pagesDone : phase.pageCount,
                            total: phase.pageCount,
                          },
                        )
                      : intl.formatMessage({ id: "pdfImport.reading" })
                }
                done={phase.kind === "opening"}
              />
            ) : null}
          </div>
        ) : null}
        <p className="import-progress__status" role="status" aria-live="polite">
          {announcement}
        </p>
        {phase.kind === "failed" ? (
          <p className="notice notice--error import-progress__error" role="alert">
            {phase.messageId ? (
              <FormattedMessage id={phase.messageId} values={{ pages: PDF_MAX_PAGES, ...phase.values }} />
            ) : (
              phase.text
            )}
          </p>
        ) : null}
      </form>
      {children}
    </section>
  );
}

function ProgressBar(props: {
  labelId: string;
  label: string;
  value: number;
  max: number;
  valueText: string;
  done: boolean;
}) {
  const percent = props.max > 0 ? Math.min(100, Math.round((props.value / props.max) * 100)) : 0;
  return (
    <div className={`progress${props.done ? " progress--done" : ""}`}>
      <div className="progress__head">
        <span id={props.labelId} className="progress__label">
          {props.label}
        </span>
        <span className="progress__value" aria-hidden="true">
          {props.valueText}
        </span>
      </div>
      <div
        className="progress__track"
        role="progressbar"
        aria-labelledby={props.labelId}
        aria-valuemin={0}
        aria-valuemax={props.max}
        aria-valuenow={props.value}
        aria-valuetext={props.valueText}
      >
        <div className="progress__fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
