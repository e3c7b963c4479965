import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { BOOT_DATA_ID } from "../../client/entries";
import { Transcript } from "../../features/presentation/components/Transcript";
import type { PresentationPageData } from "../../features/presentation/page-data";
import { messagesFor } from "../../i18n/catalogues";
import { FormattedMessage } from "../../i18n/intl";
import type { Locale } from "../../i18n/locales";
import { ANONYMOUS_SESSION } from "../../ui/session";
import type { ClientAssets } from "./assets";
import { bootDataOf } from "./boot-data";
import { renderPage } from "./page";

/** A client build as the manifest describes it: one entry, one catalogue file per language. */
const BUILT: ClientAssets = {
  entry: () => ({ script: "/static/home-abc123.js", styles: ["/static/home-abc123.css"], preloads: [] }),
  messages: (locale) => `/static/messages-${locale}-hash${locale}.json`,
};
const NOT_BUILT: ClientAssets = { entry: () => null, messages: () => null };

function render(assets: ClientAssets, locale: Locale) {
  const html = renderPage(assets, {
    // An entry whose browser gets its page data as it is (boot-data.ts).
    entry: "catalog",
    data: { greeting: "hello" },
    render: () => (
      <h1>
        <FormattedMessage id="transcript.heading" />
      </h1>
    ),
    head: { title: "Test page" },
    locale,
    session: ANONYMOUS_SESSION,
  });
  const document = new JSDOM(html).window.document;
  const boot = JSON.parse(document.getElementById(BOOT_DATA_ID)?.textContent ?? "null") as Record<string, unknown>;
  return { html, document, boot };
}

describe("issue 11: a page carries no message catalogue", () => {
  it("renders in the visitor's language, and links (preloads) that language's catalogue file instead of carrying it", () => {
    const { html, document, boot } = render(BUILT, "de");
    expect(document.querySelector("h1")?.textContent).toBe(messagesFor("de")["transcript.heading"]);
    expect(Object.keys(boot).sort()).toEqual(["data", "locale", "messagesUrl", "session"]);
    expect(boot).toMatchObject({ locale: "de", messagesUrl: "/static/messages-de-hashde.json" });
    const preloads = [...document.querySelectorAll('link[rel="preload"]')];
    expect(preloads).toHaveLength(1);
    // as=fetch with crossorigin: the same request (CORS mode, same-origin credentials) as the entry's fetch().
    expect(preloads[0]?.getAttribute("href")).toBe("/static/messages-de-hashde.json");
    expect(preloads[0]?.getAttribute("as")).toBe("fetch");
    expect(preloads[0]?.getAttribute("crossorigin")).toBe("");
    // None of the catalogue's other texts is in the page.
    const shown = new Set([messagesFor("de")["transcript.heading"], messagesFor("de")["app.name"]]);
    const carried = Object.values(messagesFor("de")).filter((text) => text.length >= 12 && !shown.has(text));
    expect(carried.length).toBeGreaterThan(300);
    expect(carried.filter((text) => html.includes(text))).toEqual([]);
  });

  it("links each language's own file", () => {
    for (const locale of ["en", "ja"] as const) {
      const { document, boot } = render(BUILT, locale);
      expect(boot.messagesUrl).toBe(`/static/messages-${locale}-hash${locale}.json`);
      expect(document.querySelector('link[rel="preload"]')?.getAttribute("href")).toBe(boot.messagesUrl);
    }
  });

  it("without a client build there is no script, so no catalogue is linked either", () => {
    const { document, boot } = render(NOT_BUILT, "de");
    expect(boot.messagesUrl).toBeNull();
    expect(document.querySelector('link[rel="preload"]')).toBeNull();
    expect(document.querySelector("script[src]")).toBeNull();
  });
});

describe("issue 11: what the boot data leaves to the markup", () => {
  const card = {
    title: "A deck",
    subTitle: "Someone",
    path: "/p/abcdefghijkl/a-deck/",
    thumbnail: "/p/abcdefghijkl/thumbnail.svg",
    type: "PRESENTATION" as const,
    previewAnimation: null,
    titleLines: 2,
    subTitleLines: 1,
  };
  const data = {
    oid: "abcdefghijkl",
    title: "A deck",
    transcriptData: { topics: [{ id: "t1", texts: [], topics: [] }] },
    topPicks: [card],
  } as unknown as PresentationPageData;

  it("R3.5 the view page's boot data says where its transcript's markup is, and sends no second copy", () => {
    expect(bootDataOf("presentation", data)).toEqual({
      oid: "abcdefghijkl",
      title: "A deck",
      transcriptData: { format: "markup", elementId: "transcript-content", sections: 1, lastStep: 0 },
      topPicks: [card],
    });
  });

  it("the embed and private view pages send no transcript (they draw none)", () => {
    for (const entry of ["embed", "view"] as const) {
      expect(bootDataOf(entry, data)).toEqual({
        oid: "abcdefghijkl",
        title: "A deck",
        transcriptData: null,
        topPicks: [card],
      });
    }
  });

  it("other pages send their data as it is", () => {
    expect(bootDataOf("catalog", data)).toBe(data);
    expect(bootDataOf("presenter", data)).toBe(data);
  });
});

describe("issue 11: a transcript is drawn once per deck and language", () => {
  const transcript = {
    topics: [
      {
        id: "t1",
        texts: [
          {
            id: "x1",
            styleClasses: ["title"],
            paragraphs: [{ text: "Kept transcript", listType: "NONE", biggestFontSize: 96 }],
          },
        ],
        topics: [],
        notes: "Say hello",
      },
    ],
  };
  const pageOf = (locale: Locale) => {
    const html = renderPage(NOT_BUILT, {
      entry: "presentation",
      data: { transcriptData: transcript },
      render: (data) => (
        <Transcript transcript={data.transcriptData as never} onPagedShown={() => {}} onOpened={() => {}} />
      ),
      head: { title: "Deck" },
      locale,
      session: ANONYMOUS_SESSION,
    });
    return new JSDOM(html).window.document.querySelector(".transcript__topics")?.innerHTML ?? "";
  };

  it("draws the same markup as the transcript's own renderer, in the page's language, on every render", () => {
    const english = pageOf("en");
    expect(english).toContain("Kept transcript");
    expect(english).toContain(messagesFor("en")["transcript.speakerNotes"]);
    expect(pageOf("en")).toBe(english);
    const german = pageOf("de");
    expect(german).toContain(messagesFor("de")["transcript.speakerNotes"]);
    expect(german).not.toBe(english);
    expect(pageOf("de")).toBe(german);
  });
});
