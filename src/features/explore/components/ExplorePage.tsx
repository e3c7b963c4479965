import { FormattedMessage, FormattedNumber, useIntl } from "../../../i18n/intl";
import { cardCount, cardSlice } from "../../../lib/card";
import { CardList, FIRST_ROW_CARDS } from "../../../ui/CardList";
import { Pagination } from "../../../ui/Pagination";
import { SiteLayout } from "../../../ui/SiteLayout";
import { SEARCH_TYPES, type SearchType, searchUrl } from "../search";
import type { ExploreBootData, SearchFacts } from "../service";
import { ViewerHeader } from "./ViewerHeader";

/** Spec §2 /explore/ and /explore/search/?search=: discovery and full-text search. */
export function ExplorePage({ data }: { data: ExploreBootData }) {
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
            <CardList
              eager={FIRST_ROW_CARDS}
              cards={data.popular}
              label={intl.formatMessage({ id: "explore.popular" })}
            />
          </section>
          <section aria-labelledby="explore-recent">
            <h2 id="explore-recent" className="home-section-title">
              <FormattedMessage id="home.recent" />
            </h2>
            <CardList cards={data.recent} label={intl.formatMessage({ id: "home.recent" })} />
          </section>
        </div>
      ) : (
        <SearchResults data={data} />
      )}
    </SiteLayout>
  );
}

/** A count that stops at the cap: "1,000+" past it (issue 15 item 2). */
function Count({ value, cap }: { value: number; cap: number }) {
  return value > cap ? (
    <FormattedMessage id="explore.atLeast" values={{ count: <FormattedNumber value={cap} /> }} />
  ) : (
    <FormattedNumber value={value} />
  );
}

/**
 * Issue 15 item 3: the results of /explore/search/ with their filters: the type (links that say
 * how many each finds, the current one marked) and a tag (a small GET form), both kept in the address.
 */
function SearchResults({ data }: { data: ExploreBootData }) {
  const intl = useIntl();
  const facts: SearchFacts = data.search ?? {
    type: "all",
    tag: null,
    totals: { all: data.total, presentation: data.total, template: 0, video: 0 },
    countCap: 1000,
    similar: false,
    alike: 0,
  };
  const results = data.results ?? [];
  const shown = cardCount(results);
  // Issue 28 item 5: alike cards (typo tolerance) below the exact ones are listed apart, so a
  // deck that holds the words is never shown under "No exact matches".
  const alikeBelow = facts.similar ? 0 : Math.min(facts.alike, shown);
  const exact = cardSlice(results, 0, shown - alikeBelow);
  const alike = cardSlice(results, shown - alikeBelow, shown);
  const totalFor = (type: SearchType) => facts.totals[type];
  return (
    <div className="explore">
      <h1>
        <FormattedMessage id="explore.resultsTitle" values={{ term: data.term }} />
      </h1>
      <p className="search-hint">
        <FormattedMessage id="explore.syntaxHint" />
      </p>
      <section className="search-filters" aria-label={intl.formatMessage({ id: "explore.filters" })}>
        <nav aria-label={intl.formatMessage({ id: "explore.typeFilter" })}>
          <ul className="search-types">
            {SEARCH_TYPES.map((type) => (
              <li key={type}>
                <a
                  className="search-types__link"
                  href={searchUrl(data.term, { type, tag: facts.tag })}
                  aria-current={type === facts.type ? "page" : undefined}
                >
                  <FormattedMessage id={`explore.type.${type}`} />{" "}
                  <span className="search-types__count">
                    <Count value={totalFor(type)} cap={facts.countCap} />
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form className="search-tag" method="get" action="/explore/search/">
          <input type="hidden" name="search" value={data.term} />
          {facts.type !== "all" ? <input type="hidden" name="type" value={facts.type} /> : null}
          <label htmlFor="search-tag-input">
            <FormattedMessage id="explore.tagLabel" />
          </label>
          <input id="search-tag-input" name="tag" type="text" defaultValue={facts.tag ?? ""} maxLength={64} />
          <button className="button" type="submit">
            <FormattedMessage id="explore.tagApply" />
          </button>
        </form>
        {facts.tag ? (
          <p className="search-tag__active">
            <FormattedMessage id="explore.tagActive" values={{ tag: facts.tag }} />{" "}
            <a href={searchUrl(data.term, { type: facts.type })}>
              <FormattedMessage id="explore.tagRemove" />
            </a>
          </p>
        ) : null}
      </section>
      <p role="status">
        {facts.similar ? (
          <FormattedMessage id="explore.similar" values={{ term: data.term }} />
        ) : data.total > facts.countCap ? (
          <FormattedMessage id="explore.resultCountMore" values={{ count: intl.formatNumber(facts.countCap) }} />
        ) : (
          <FormattedMessage id="explore.resultCount" values={{ count: data.total }} />
        )}
      </p>
      {cardCount(exact) > 0 ? (
        <CardList eager={FIRST_ROW_CARDS} cards={exact} label={intl.formatMessage({ id: "explore.results" })} />
      ) : (
        <p>
          <FormattedMessage id="explore.noResults" values={{ link: (text) => <a href="/explore/">{text}</a> }} />
        </p>
      )}
      {cardCount(alike) > 0 ? (
        <section className="search-alike" aria-labelledby="search-alike-title">
          <h2 id="search-alike-title" className="home-section-title">
            <FormattedMessage id="explore.alsoSimilar" values={{ term: data.term }} />
          </h2>
          <CardList cards={alike} label={intl.formatMessage({ id: "explore.alsoSimilar" }, { term: data.term })} />
        </section>
      ) : null}
      <Pagination
        page={data.page}
        pageCount={data.pageCount}
        hrefFor={(n) => searchUrl(data.term, { type: facts.type, tag: facts.tag, page: n })}
      />
    </div>
  );
}
