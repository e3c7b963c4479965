import { FormattedMessage } from "../../../i18n/intl";
import { LinkButton } from "../../../ui/LinkButton";
import { ImportDropZone } from "../../pdf-import/components/ImportDropZone";

/** The templates' page (spec §2 See more templates); each template's "Use this template" makes a copy. */
const TEMPLATES_PATH = "/presentation-template/";

/**
 * Issue 28, item 3: the first thing an empty dashboard and `/v/create/` show. One drop zone for
 * a Markdown, JSON or PDF file (a PDF opens on its view page once its pages are converted), and
 * the other way to start: a template, which "Use this template" copies into a deck of one's own.
 */
export function StartPanel({ importAction }: { importAction: string }) {
  return (
    <ImportDropZone action={importAction} title="start.title" lead="start.lead">
      <div className="start-panel__template">
        <p className="start-panel__or">
          <FormattedMessage id="start.template.lead" />
        </p>
        <LinkButton href={TEMPLATES_PATH} message="start.template.link" />
      </div>
    </ImportDropZone>
  );
}
