import type { IntlShape } from "../i18n/intl";
import { type Card, type CardStats, markedRuns } from "../lib/card";
import { escapeHtml } from "../lib/html";

/**
 * Issue 32: a list of cards as HTML, made as one string. The cards are plain links (no state, no
 * handlers) that the browser keeps as the server's markup (ServerMarkup), so React gains nothing
 * by building them element by element: at 24 cards with highlighted snippets that was a third of
 * a search page's render. Every text and attribute goes through escapeHtml.
 *
 * Spec §3 Card, shown as a grid of links with thumbnails and line-limited text. Issue 12: the
 * title sits below the thumbnail, two lines at most (the whole of it in the link's tooltip and
 * accessible name), and a presentation's card says its views, likes and date in the visitor's
 * language. `eager`: how many of the first cards' thumbnails load with the page (issue 30: the
 * first row of the page's first list is on screen at once, often its largest paint).
 */
export function cardListMarkup(cards: readonly Card[], label: string, eager: number, intl: IntlShape): string {
  const thisYear = new Date().getUTCFullYear();
  let html = `<ul class="card-grid" aria-label="${escapeHtml(label)}">`;
  cards.forEach((card, index) => {
    html += `<li><a class="card" href="${escapeHtml(card.path)}" title="${escapeHtml(card.title)}">`;
    html += `<img class="card__thumbnail" src="${escapeHtml(card.thumbnail)}" alt="" width="640" height="360"${index < eager ? "" : ' loading="lazy"'}>`;
    html += `<span class="card__body"><strong class="card__title" style="-webkit-line-clamp:${card.titleLines}">`;
    html += card.marked ? markedMarkup(card.marked.title) : escapeHtml(card.title);
    html += `</strong><span class="card__subtitle" style="-webkit-line-clamp:${card.subTitleLines}">${escapeHtml(card.subTitle)}</span>`;
    if (card.marked?.snippet) html += `<span class="card__snippet">${markedMarkup(card.marked.snippet)}</span>`;
    if (card.stats) html += factsMarkup(card.stats, intl, thisYear);
    html += "</span></a></li>";
  });
  return `${html}</ul>`;
}

/** Issue 15: a search hit's text with its matched words in <mark>, the rest as plain text. */
function markedMarkup(text: string): string {
  let html = "";
  for (const run of markedRuns(text))
    html += run.marked ? `<mark>${escapeHtml(run.text)}</mark>` : escapeHtml(run.text);
  return html;
}

function factsMarkup(stats: CardStats, intl: IntlShape, thisYear: number): string {
  let html = '<span class="card__facts">';
  if (stats.views > 0) html += `<span>${escapeHtml(countText(intl, "presentation.viewsCount", stats.views))}</span>`;
  html += `<span>${escapeHtml(countText(intl, "card.likes", stats.likes))}</span>`;
  html += `<span><time datetime="${escapeHtml(stats.lastModified)}">${escapeHtml(cardDate(intl, stats.lastModified, thisYear))}</time></span>`;
  return `${html}</span>`;
}

/**
 * The facts' texts by language, message and number, or by language and day: the same few counts
 * and days come back on every page, and formatting them anew was a tenth of a search page's render.
 */
const factTexts = new Map<string, string>();
/** Texts kept before the memo starts again. */
const FACT_TEXTS_KEPT = 4_096;

function remembered(key: string, format: () => string): string {
  let text = factTexts.get(key);
  if (text === undefined) {
    text = format();
    if (factTexts.size >= FACT_TEXTS_KEPT) factTexts.clear();
    factTexts.set(key, text);
  }
  return text;
}

/** "1.2K views", "1 like": the count compact, in a message that agrees with it. */
function countText(intl: IntlShape, id: "presentation.viewsCount" | "card.likes", count: number): string {
  return remembered(`${intl.locale} ${id} ${count}`, () =>
    intl.formatMessage({ id }, { count, formatted: intl.formatNumber(count, { notation: "compact" }) }),
  );
}

/** Issue 28: this year's dates without the year, so the facts fit one line on a card. */
function cardDate(intl: IntlShape, lastModified: string, thisYear: number): string {
  // An instant as toISOString writes it (as cards carry it) names its UTC day in its first ten
  // characters; anything else is read as a date first.
  let day = ISO_INSTANT.test(lastModified) ? lastModified.slice(0, 10) : null;
  if (day === null) {
    const date = new Date(lastModified);
    if (Number.isNaN(date.getTime())) return "";
    day = date.toISOString().slice(0, 10);
  }
  const sameYear = Number(day.slice(0, 4)) === thisYear;
  const utcDay = day;
  return remembered(`${intl.locale} ${sameYear ? "date" : "dated"} ${day}`, () =>
    intl.formatDate(new Date(`${utcDay}T00:00:00Z`), {
      month: "short",
      day: "numeric",
      year: sameYear ? undefined : "numeric",
      timeZone: "UTC",
    }),
  );
}

/** 2026-11-28T10:08:38.142Z: a UTC instant with a four-digit year. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
