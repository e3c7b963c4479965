import { FormattedMessage, useIntl } from "../i18n/intl";

/** Previous / "Page N of M" / Next, as links (works without JavaScript). */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  const intl = useIntl();
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={intl.formatMessage({ id: "dashboard.pages" })}>
      {page > 1 ? (
        <a className="button" href={hrefFor(page - 1)} rel="prev">
          <FormattedMessage id="dashboard.previousPage" />
        </a>
      ) : null}
      <span aria-current="page">
        <FormattedMessage id="dashboard.pageOf" values={{ page, pages: pageCount }} />
      </span>
      {page < pageCount ? (
        <a className="button" href={hrefFor(page + 1)} rel="next">
          <FormattedMessage id="dashboard.nextPage" />
        </a>
      ) : null}
    </nav>
  );
}
