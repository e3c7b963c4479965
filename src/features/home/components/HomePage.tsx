import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { cardCount } from "../../../lib/card";
import { CardList, FIRST_ROW_CARDS } from "../../../ui/CardList";
import { PageIntro } from "../../../ui/PageIntro";
import { SiteLayout } from "../../../ui/SiteLayout";
import type { HomeBootData } from "../service";
import "./home.css";

/** Podium's front door: what it is, and the presentations most recently updated. */
export function HomePage({ data }: { data: HomeBootData }) {
  const intl = useIntl();
  return (
    <SiteLayout>
      <PageIntro as="section" className="home-hero" title="home.title" lead="home.lead">
        {/* Issue 12: search from the front door (spec §2: /explore/search/?search=…). */}
        <search>
          <form className="home-search" method="get" action="/explore/search/">
            <label className="visually-hidden" htmlFor="home-search-input">
              <FormattedMessage id="home.searchLabel" />
            </label>
            <input
              id="home-search-input"
              className="home-search__input"
              type="search"
              name="search"
              placeholder={intl.formatMessage({ id: "home.searchPlaceholder" }, { count: data.presentationCount })}
              enterKeyHint="search"
            />
            <button type="submit" className="button button--primary home-search__button">
              <FormattedMessage id="home.searchButton" />
            </button>
          </form>
        </search>
      </PageIntro>
      <section aria-labelledby="home-recent">
        <h2 id="home-recent" className="home-section-title">
          <FormattedMessage id="home.recent" />
        </h2>
        {cardCount(data.recent) > 0 ? (
          <CardList eager={FIRST_ROW_CARDS} cards={data.recent} label={intl.formatMessage({ id: "home.recent" })} />
        ) : (
          <p>
            <FormattedMessage id="home.empty" />
          </p>
        )}
      </section>
    </SiteLayout>
  );
}
