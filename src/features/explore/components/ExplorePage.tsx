import { FormattedMessage, useIntl } from "react-intl";
import { CardList } from "../../../ui/CardList";
import { Pagination } from "../../../ui/Pagination";
import { SiteLayout } from "../../../ui/SiteLayout";
import { searchUrl } from "../search";
import type { ExplorePageData } from "../service";
import { ViewerHeader } from "./ViewerHeader";

/** Spec §2 /explore/ and /explore/search/?search=: discovery and full-text search. */
export function ExplorePage({ data }: { data: ExplorePageData }) {
  const intl = useIntl();
  return (
    <SiteLayout header={<ViewerHeader appData={data.header} initialSearch={data.term} />}>
      {data.results === null ? (
        <div className="explore">
          <h1>
            <FormattedMessage id="explore.title" />
          </h1>
          <section aria-labelledby="explore-popular">
            <h2 id="explore-popular" className="home-section-title">
              <FormattedMessage id="explore.popular" />
            </h2>
            <CardList cards={data.popular} label={intl.formatMessage({ id: "explore.popular" })} />
          </section>
          <section aria-labelledby="explore-recent">
            <h2 id="explore-recent" className="home-section-title">
              <FormattedMessage id="home.recent" />
            </h2>
            <CardList cards={data.recent} label={intl.formatMessage({ id: "home.recent" })} />
          </section>
        </div>
      ) : (
        <div className="explore">
          <h1>
            <FormattedMessage id="explore.resultsTitle" values={{ term: data.term }} />
          </h1>
          <p role="status">
            <FormattedMessage id="explore.resultCount" values={{ count: data.total }} />
          </p>
          {data.results.length > 0 ? (
            <CardList cards={data.results} label={intl.formatMessage({ id: "explore.results" })} />
          ) : (
            <p>
              <FormattedMessage id="explore.noResults" values={{ link: (text) => <a href="/explore/">{text}</a> }} />
            </p>
          )}
          <Pagination
            page={data.page}
            pageCount={data.pageCount}
            hrefFor={(n) => `${searchUrl(data.term)}&page=${n}`}
          />
        </div>
      )}
    </SiteLayout>
  );
}
