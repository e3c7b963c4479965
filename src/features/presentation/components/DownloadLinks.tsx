import { FormattedMessage } from "../../../i18n/intl";
import type { PresentationPageData } from "../page-data";
import "./downloads.css";

/**
 * Issue 33 item 4: the downloads the owner allows here (the public page's setting, or the view
 * link's): the PDF, and the Markdown of a Markdown deck. Plain links that download (they work
 * without JavaScript); nothing at all where downloads aren't allowed.
 */
export function DownloadLinks({ downloads }: { downloads: PresentationPageData["downloads"] }) {
  if (!downloads) return null;
  return (
    <span className="downloads">
      <a className="button downloads__link" href={downloads.pdf} download>
        <FormattedMessage id="download.pdf" />
      </a>
      {downloads.markdown ? (
        <a className="button downloads__link" href={downloads.markdown} download>
          <FormattedMessage id="download.markdown" />
        </a>
      ) : null}
    </span>
  );
}
