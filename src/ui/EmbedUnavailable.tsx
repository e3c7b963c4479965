import { FormattedMessage } from "../i18n/intl";
import { PodiumMark } from "./SiteLayout";
import "./styles/embed-unavailable.css";

/**
 * Issue 12: what a frame on another site shows when its presentation is private, removed or never
 * existed (`/p/embed/{oid}/` answering 404). Branded and calm instead of a blank hole or the
 * browser's "refused to connect"; it says nothing about which of those it is, so nothing about the
 * presentation leaks. Its links open Podium in a new tab, never inside the host's frame.
 */
export function EmbedUnavailable() {
  return (
    <main className="embed-unavailable">
      <div className="embed-unavailable__inner">
        <a className="embed-unavailable__brand" href="/" target="_blank" rel="noopener">
          <PodiumMark />
          <span>
            <FormattedMessage id="app.name" />
          </span>
          <span className="visually-hidden">
            {" "}
            <FormattedMessage id="toolbar.newTab" />
          </span>
        </a>
        <h1 className="embed-unavailable__title">
          <FormattedMessage id="embed.unavailable.title" />
        </h1>
        <p className="embed-unavailable__body">
          <FormattedMessage id="embed.unavailable.body" />
        </p>
        <a className="button button--primary embed-unavailable__action" href="/explore/" target="_blank" rel="noopener">
          <FormattedMessage id="embed.unavailable.explore" />
          <span className="visually-hidden">
            {" "}
            <FormattedMessage id="toolbar.newTab" />
          </span>
        </a>
      </div>
    </main>
  );
}
