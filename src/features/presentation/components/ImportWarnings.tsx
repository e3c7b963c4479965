import type { LocalImage, MarkdownWarning } from "../../../document/markdown";
import { FormattedMessage } from "../../../i18n/intl";
import { LocalImagesUpload } from "../../assets/components/LocalImagesUpload";

/**
 * What an import kept only as text (issue 10: never a silent loss): one line per warning,
 * naming the slide, shown after an import or a save. Image files the Markdown names by a relative
 * path are offered for upload right here (issue 28 item 7).
 */
export function ImportWarnings({
  warnings,
  localImages = [],
  oid,
}: {
  warnings: readonly MarkdownWarning[];
  localImages?: readonly LocalImage[];
  oid: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <section className="import-warnings" aria-labelledby="import-warnings-title" data-testid="import-warnings">
      <h2 id="import-warnings-title" className="import-warnings__title">
        <FormattedMessage id="import.warnings.title" values={{ count: warnings.length }} />
      </h2>
      <ul className="import-warnings__list">
        {warnings.map((warning) => (
          <li key={`${warning.code}-${warning.slide}`}>
            <FormattedMessage id={`import.warnings.${warning.code}`} values={{ slide: warning.slide }} />
          </li>
        ))}
      </ul>
      <LocalImagesUpload oid={oid} images={localImages} />
    </section>
  );
}
