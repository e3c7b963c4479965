import { FormattedMessage } from "../../../i18n/intl";
import type { PresentationPageData } from "../page-data";
import "./downloads.css";

/**
 * Issue 33 item 4: the downloads the owner allows here (the public page's setting, or the view
 * link's): the PDF, and the Markdown of a Markdown deck. Plain links that download (they work
 * without JavaScript); nothing at all where downloads aren't allowed. (Written as a loop: the
 * view page's JavaScript is at its budget, issue 30.)
 */
export function DownloadLinks({ downloads }: { downloads: PresentationPageData["downloads"] }) {
  if (!downloads) return null;
  return (
    <span className="downloads">
      {(["pdf", "markdown"] as const).map((kind) =>
        downloads[kind] ? (
          <a key={kind} className="button" href={downloads[kind]} download>
            <FormattedMessage id={`download.${kind}`} />
          </a>
        ) : null,
      )}
    </span>
  );
}
