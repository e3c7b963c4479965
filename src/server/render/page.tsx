import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { BOOT_DATA_ID, ROOT_ID } from "../../client/entries";
import type { BootData } from "../../client/hydrate";
import type { Transcript } from "../../document/transcript";
import type { HeadText, PageSpec } from "../../features/http";
import { drawTranscript } from "../../features/presentation/components/TranscriptText";
import { TranscriptMarkup } from "../../features/presentation/components/transcript-markup";
import { messagesFor } from "../../i18n/catalogues";
import type { IntlShape } from "../../i18n/intl";
import { RawIntlProvider } from "../../i18n/intl";
import { type Locale, serverIntlCache } from "../../i18n/locales";
import { formatWithoutPluralRules } from "../../i18n/plural-fallback";
import { createPodiumIntl } from "../../i18n/podium-intl";
import { escapeHtml, jsonForScript } from "../../lib/html";
import { PodiumApp } from "../../ui/PodiumApp";
import type { SessionInfo } from "../../ui/session";
import type { ClientAssets } from "./assets";
import { bootDataOf } from "./boot-data";

export interface PageRender<Data> extends PageSpec<Data> {
  locale: Locale;
  session: SessionInfo;
}

/**
 * Server-side rendering of a whole HTML document: React renders the page with a fresh intl
 * instance, the boot data goes in one escaped JSON script, and the entry hydrates it. The page
 * carries no messages (issue 11): it links its language's catalogue, a file the browser caches
 * across pages, preloaded so that it arrives beside the entry script.
 */
/**
 * Issue 11 (a cheap miss): a transcript's HTML, drawn once per transcript and language. The view
 * page keeps a presentation's transcript (the same object until the deck changes), and the
 * browser never hydrates inside it (ServerMarkup), so static markup is all it needs.
 */
const transcriptDrawings = new WeakMap<Transcript, Map<Locale, string>>();
function drawTranscriptOnce(transcript: Transcript, locale: Locale, intl: IntlShape): void {
  let byLocale = transcriptDrawings.get(transcript);
  if (!byLocale) {
    byLocale = new Map();
    transcriptDrawings.set(transcript, byLocale);
  }
  let html = byLocale.get(locale);
  if (html === undefined) {
    html = renderToStaticMarkup(<RawIntlProvider value={intl}>{drawTranscript(transcript)}</RawIntlProvider>);
    byLocale.set(locale, html);
  }
}

/** The transcript a page about a presentation shows (its page data's `transcriptData`, spec §3), if any. */
function transcriptIn(data: unknown): Transcript | null {
  if (typeof data !== "object" || data === null || !("transcriptData" in data)) return null;
  const transcript = (data as { transcriptData: unknown }).transcriptData;
  return typeof transcript === "object" && transcript !== null ? (transcript as Transcript) : null;
}

export function renderPage<Data>(assets: ClientAssets, page: PageRender<Data>): string {
  const messages = messagesFor(page.locale);
  const intl = createPodiumIntl(
    page.locale,
    messages,
    serverIntlCache(page.locale),
    undefined,
    formatWithoutPluralRules,
  );
  // Drawn before the page (React can't render inside a render): the page then reuses it.
  const transcript = transcriptIn(page.data);
  if (transcript) drawTranscriptOnce(transcript, page.locale, intl);
  const body = renderToString(
    <PodiumApp intl={intl} session={page.session}>
      {/* Drawn here only: the browser keeps this markup (issue 11). */}
      <TranscriptMarkup.Provider
        value={(transcript) => {
          const html = transcriptDrawings.get(transcript)?.get(page.locale);
          return html === undefined ? drawTranscript(transcript) : { html };
        }}
      >
        {page.render(page.data)}
      </TranscriptMarkup.Provider>
    </PodiumApp>,
  );
  const entry = assets.entry(page.entry);
  const messagesUrl = entry ? assets.messages(page.locale) : null;
  const boot: BootData<unknown> = {
    locale: page.locale,
    messagesUrl,
    session: page.session,
    data: bootDataOf(page.entry, page.data),
  };
  const { head } = page;
  const text = (value: HeadText | undefined) =>
    value === undefined
      ? undefined
      : typeof value === "string"
        ? value
        : intl.formatMessage({ id: value.id }, value.values);
  const title = `${text(head.title)} · ${intl.formatMessage({ id: "app.name" })}`;
  const description = text(head.description);
  const meta = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(title)}</title>`,
    head.largestImage
      ? `<link rel="preload" as="image" href="${escapeHtml(head.largestImage)}" fetchpriority="high">`
      : "",
    description ? `<meta name="description" content="${escapeHtml(description)}">` : "",
    head.noindex ? `<meta name="robots" content="noindex">` : "",
    head.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(head.canonicalUrl)}">` : "",
    `<meta property="og:site_name" content="Podium">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    description ? `<meta property="og:description" content="${escapeHtml(description)}">` : "",
    (head.shareUrl ?? head.canonicalUrl)
      ? `<meta property="og:url" content="${escapeHtml(head.shareUrl ?? head.canonicalUrl ?? "")}">`
      : "",
    head.imageUrl ? `<meta property="og:image" content="${escapeHtml(head.imageUrl)}">` : "",
    head.oembedUrl
      ? `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(head.oembedUrl)}" title="${escapeHtml(title)}">`
      : "",
    `<meta name="twitter:card" content="${head.imageUrl ? "summary_large_image" : "summary"}">`,
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml">`,
    ...(entry?.styles ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    // The same request as the entry's fetch() (CORS mode, same-origin credentials), so it is used, not repeated.
    messagesUrl ? `<link rel="preload" href="${escapeHtml(messagesUrl)}" as="fetch" crossorigin>` : "",
    ...(entry?.preloads ?? []).map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
  ]
    .filter(Boolean)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.locale)}" data-env="${escapeHtml(page.session.environment)}" data-cookies="${escapeHtml(page.session.cookies)}"${page.session.cookieDomain ? ` data-cookie-domain="${escapeHtml(page.session.cookieDomain)}"` : ""}>
<head>
${meta}
</head>
<body>
<div id="${ROOT_ID}">${body}</div>
<script type="application/json" id="${BOOT_DATA_ID}">${jsonForScript(boot)}</script>
${entry ? `<script type="module" src="${escapeHtml(entry.script)}"></script>` : ""}
</body>
</html>`;
}
