import { useEffect } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { CardList, FIRST_ROW_CARDS } from "../../../ui/CardList";
import { LinkButton } from "../../../ui/LinkButton";
import { PageIntro } from "../../../ui/PageIntro";
import { SiteLayout } from "../../../ui/SiteLayout";
import { CsrfField, useSession } from "../../../ui/session";
import { trackEvent } from "../../events/client";
import { EVENT_FAMILIES, VIDEO_EVENTS } from "../../events/usage-event";
import { type EmbedDocsDemo, EmbedDocsPage } from "./EmbedDocsPage";

/** The pages the view page links to: staff picks, templates, videos and Podium's own pages. */
export type CatalogPageData =
  | { page: "gallery"; cards: Card[] }
  | { page: "templates"; cards: Card[] }
  | { page: "template"; title: string; subTitle: string; descriptionHtml: string; oid: string; thumbnail: string }
  | { page: "videos"; cards: Card[] }
  | { page: "info"; topic: "product" | "video" | "edu" }
  | { page: "developers"; demo: EmbedDocsDemo | null };

export function CatalogPage({ data }: { data: CatalogPageData }) {
  const videoPage = videoPageOf(data);
  useEffect(() => {
    // Spec §3: the video product's pages send the video family's events.
    if (videoPage) void trackEvent(VIDEO_EVENTS.loadedVideoPage, { page: videoPage }, EVENT_FAMILIES.videoWeb);
  }, [videoPage]);
  return <SiteLayout>{renderCatalog(data)}</SiteLayout>;
}

/** Which of the video product's pages this is (See more videos, the banner's Learn more pages), or null. */
export function videoPageOf(data: CatalogPageData): "videos" | "video" | "edu" | null {
  if (data.page === "videos") return "videos";
  if (data.page === "info" && data.topic !== "product") return data.topic;
  return null;
}

function renderCatalog(data: CatalogPageData) {
  switch (data.page) {
    case "gallery":
      return <CardPage titleId="catalog.gallery.title" leadId="catalog.gallery.lead" cards={data.cards} />;
    case "templates":
      return <CardPage titleId="catalog.templates.title" leadId="catalog.templates.lead" cards={data.cards} />;
    case "videos":
      return <CardPage titleId="catalog.videos.title" leadId="catalog.videos.lead" cards={data.cards} />;
    case "template":
      return <TemplateDetail data={data} />;
    case "info":
      return <InfoPage topic={data.topic} />;
    case "developers":
      return <EmbedDocsPage demo={data.demo} />;
  }
}

function CardPage({ titleId, leadId, cards }: { titleId: MessageId; leadId: MessageId; cards: Card[] }) {
  const intl = useIntl();
  return (
    <div className="catalog">
      <PageIntro as="section" className="home-hero" title={titleId} lead={leadId} />
      <CardList eager={FIRST_ROW_CARDS} cards={cards} label={intl.formatMessage({ id: titleId })} />
    </div>
  );
}

function TemplateDetail({ data }: { data: Extract<CatalogPageData, { page: "template" }> }) {
  const session = useSession();
  return (
    <div className="catalog catalog--template">
      <section className="home-hero">
        <h1>{data.title}</h1>
        <p>{data.subTitle}</p>
      </section>
      <div className="template-detail">
        <img src={data.thumbnail} alt="" width={640} height={360} className="template-detail__image" />
        <div>
          <div
            className="toolbar-card__description"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised when seeded or saved
            dangerouslySetInnerHTML={{ __html: data.descriptionHtml }}
          />
          <div className="template-detail__actions">
            <a className="button" href={`/p/${data.oid}/`}>
              <FormattedMessage id="catalog.template.preview" />
            </a>
            {session.isAuthenticated ? (
              <form method="post" action={`/p/${data.oid}/copy/`} className="inline-form">
                <CsrfField />
                <button type="submit" className="button button--primary">
                  <FormattedMessage id="catalog.template.use" />
                </button>
              </form>
            ) : (
              <a
                className="button button--primary"
                href={`/signup/?next=${encodeURIComponent(`/presentation-template/`)}`}
              >
                <FormattedMessage id="catalog.template.signUp" />
              </a>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

function InfoPage({ topic }: { topic: "product" | "video" | "edu" }) {
  const session = useSession();
  return (
    <div className="catalog info-page">
      <section className="home-hero">
        <h1>
          <FormattedMessage id={`info.${topic}.title`} />
        </h1>
        <p>
          <FormattedMessage id={`info.${topic}.lead`} />
        </p>
      </section>
      <ul className="info-points">
        {[1, 2, 3].map((n) => (
          <li key={n} className="panel">
            <h2>
              <FormattedMessage id={`info.${topic}.point${n}.title` as MessageId} />
            </h2>
            <p>
              <FormattedMessage id={`info.${topic}.point${n}.body` as MessageId} />
            </p>
          </li>
        ))}
      </ul>
      <p className="info-page__cta">
        <a className="button button--primary" href={session.isAuthenticated ? "/dashboard/next/" : "/signup/"}>
          <FormattedMessage id={session.isAuthenticated ? "toolbar.createYourOwn" : "nav.getStarted"} />
        </a>{" "}
        <LinkButton href="/explore/" message="explore.title" />
      </p>
    </div>
  );
}
