import { type ReactNode, useEffect, useRef, useState } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "../../../i18n/intl";

/** How long "Link copied" stays before the status clears (long enough to read, then out of the way). */
export const COPIED_NOTICE_MS = 4000;

/**
 * Issue 12: one live view link on the dashboard, as the full address a person can paste
 * (PODIUM_PUBLIC_URL + /view/{linkId}/), with a Copy button whose result is announced to screen
 * readers, and who can open it. `revoke` is the form that revokes it.
 */
export function ViewLinkItem({
  url,
  createdAt,
  index,
  privateDeck,
  forPresenting = false,
  revoke,
  name = "",
  stats = null,
  settings = null,
}: {
  url: string;
  createdAt: string;
  /** Position in the list, for unique element ids. */
  index: number;
  /** The presentation is private: the link opens it all the same, and says so. */
  privateDeck: boolean;
  /** Issue 28: made for presenting: it opens the presenter view too, with the speaker notes. */
  forPresenting?: boolean;
  revoke: ReactNode;
  /** Issue 33: the owner's name for the link ("Investor: Acme"). */
  name?: string;
  /** Issue 33: its views, last view and state. */
  stats?: ReactNode;
  /** Issue 33: its settings form. */
  settings?: ReactNode;
}) {
  const intl = useIntl();
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = async () => {
    if (timer.current) clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      // Without clipboard access the address is selected for a manual copy, and the status says so.
      input.current?.select();
      setCopied("failed");
    }
    timer.current = setTimeout(() => setCopied(null), COPIED_NOTICE_MS);
  };
  const id = `view-link-${index}`;
  return (
    <li className="view-link">
      {name ? <h3 className="view-link__name">{name}</h3> : null}
      <input
        ref={input}
        id={id}
        className="view-link__address"
        type="text"
        readOnly
        value={url}
        aria-label={intl.formatMessage({ id: "dashboard.links.address" })}
        aria-describedby={`${id}-who`}
        onFocus={(event) => event.target.select()}
      />
      <button
        type="button"
        className="button button--primary"
        onClick={() => void copy()}
        aria-label={intl.formatMessage({ id: "dashboard.links.copyLabel" }, { url })}
      >
        <FormattedMessage id="dashboard.links.copy" />
      </button>
      {revoke}
      <p className="view-link__meta">
        <span id={`${id}-who`}>
          <FormattedMessage id={privateDeck ? "dashboard.links.whoPrivate" : "dashboard.links.who"} />
          {forPresenting ? (
            <>
              {" "}
              <FormattedMessage id="dashboard.links.presenting" />
            </>
          ) : null}
        </span>
        <span>
          <FormattedMessage
            id="dashboard.links.created"
            values={{ date: <FormattedDate value={createdAt} dateStyle="medium" timeZone="UTC" /> }}
          />
        </span>
        {stats}
        <span className="view-link__status" role="status">
          {copied ? (
            <FormattedMessage id={copied === "copied" ? "dashboard.links.copied" : "dashboard.links.copyFailed"} />
          ) : null}
        </span>
      </p>
      {settings}
    </li>
  );
}
