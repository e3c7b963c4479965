// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { importMarkdown } from "../../../document/markdown";
import { deriveTranscript, transcriptPlainText } from "../../../document/transcript";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import {
  PAGED_TRANSCRIPT_EVENT_MS,
  TRANSCRIPT_COLLAPSED_PX,
  TRANSCRIPT_EXPANDED_EXTRA_PX,
  Transcript,
} from "./Transcript";
import { drawTranscript, TRANSCRIPT_INDENT_PX } from "./TranscriptText";
import { TranscriptMarkup } from "./transcript-markup";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const transcript = deriveTranscript(importMarkdown("# One\n- a\n---\n# Two\n- b", "2"));

function renderWithHeight(height: number) {
  vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockReturnValue(height);
  const onPagedShown = vi.fn();
  const onOpened = vi.fn();
  render(
    <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
      <TranscriptMarkup.Provider value={drawTranscript}>
        <Transcript transcript={transcript} onPagedShown={onPagedShown} onOpened={onOpened} />
      </TranscriptMarkup.Provider>
    </PodiumApp>,
  );
  return { onPagedShown, onOpened, content: () => document.getElementById("transcript-content") as HTMLElement };
}

describe("transcript", () => {
  it("R5.8 shorter than 500 px: shown whole, no toggle, no paged event", () => {
    vi.useFakeTimers();
    const { onPagedShown, content } = renderWithHeight(320);
    expect(screen.queryByRole("button")).toBeNull();
    expect(content().style.maxHeight).toBe("");
    act(() => {
      vi.advanceTimersByTime(PAGED_TRANSCRIPT_EVENT_MS + 10);
    });
    expect(onPagedShown).not.toHaveBeenCalled();
  });

  it("R4.9 R9.9 longer: collapsed at 500 px; See → expanded to content + 48 px (transcript-opened); Hide → collapsed", () => {
    vi.useFakeTimers();
    const { onPagedShown, onOpened, content } = renderWithHeight(1800);
    expect(TRANSCRIPT_COLLAPSED_PX).toBe(500);
    expect(content().style.maxHeight).toBe("500px");
    act(() => {
      vi.advanceTimersByTime(PAGED_TRANSCRIPT_EVENT_MS - 1);
    });
    expect(onPagedShown).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onPagedShown).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole("button", { name: "See full transcript" }));
    expect(onOpened).toHaveBeenCalledOnce();
    expect(content().style.maxHeight).toBe(`${1800 + TRANSCRIPT_EXPANDED_EXTRA_PX}px`);
    HTMLElement.prototype.scrollIntoView = vi.fn();
    fireEvent.click(screen.getByRole("button", { name: "Hide full transcript" }));
    expect(content().style.maxHeight).toBe("500px");
    expect(onOpened).toHaveBeenCalledOnce();
  });

  it("R9.9 R3.7 indents nested topics 24 px per depth", () => {
    expect(TRANSCRIPT_INDENT_PX).toBe(24);
    const nested = deriveTranscript({
      ...importMarkdown("# A\n---\n# B", "2"),
    });
    const tree = { topics: [{ ...nested.topics[0], topics: [nested.topics[1]] }] } as typeof nested;
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockReturnValue(100);
    const { container } = render(
      <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
        <TranscriptMarkup.Provider value={drawTranscript}>
          <Transcript transcript={tree} onPagedShown={() => {}} onOpened={() => {}} />
        </TranscriptMarkup.Provider>
      </PodiumApp>,
    );
    const topics = container.querySelectorAll<HTMLElement>(".transcript__topic");
    expect(topics[0]?.style.marginInlineStart).toBe("");
    expect(topics[1]?.style.marginInlineStart).toBe("24px");
  });
});

describe("issue 28 item 6: image alt text in the transcript", () => {
  it("issue 28 item 6: a slide's image descriptions are read under its text, and an image-only slide is in the transcript", () => {
    const hash = "a".repeat(64);
    const markdown = `# Tides\n\n![A tide chart of the bay at spring tide](/assets/${hash}.webp)\n---\n![The harbour at low water](/assets/${hash}.webp)\n---\n![](/assets/${hash}.webp)`;
    const withImages = deriveTranscript(importMarkdown(markdown, "2"));
    expect(withImages.topics.map((topic) => topic.images)).toEqual([
      ["A tide chart of the bay at spring tide"],
      ["The harbour at low water"],
    ]);
    expect(transcriptPlainText(withImages)).toBe(
      "Tides\nA tide chart of the bay at spring tide\nThe harbour at low water",
    );
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockReturnValue(100);
    const { container } = render(
      <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
        <TranscriptMarkup.Provider value={drawTranscript}>
          <Transcript transcript={withImages} onPagedShown={() => {}} onOpened={() => {}} />
        </TranscriptMarkup.Provider>
      </PodiumApp>,
    );
    expect([...container.querySelectorAll(".transcript__image")].map((node) => node.textContent)).toEqual([
      "Image: A tide chart of the bay at spring tide",
      "Image: The harbour at low water",
    ]);
  });
});

describe("issue 11: the transcript travels once, as markup", () => {
  it("drawn on the server, kept as it is by a browser that hydrates with no transcript data; the toggle still works", async () => {
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockReturnValue(1800);
    const intl = createPodiumIntl("en", messagesFor("en"));
    const container = document.createElement("div");
    document.body.append(container);
    container.innerHTML = renderToString(
      <PodiumApp intl={intl}>
        <TranscriptMarkup.Provider value={drawTranscript}>
          <Transcript transcript={transcript} onPagedShown={() => {}} onOpened={() => {}} />
        </TranscriptMarkup.Provider>
      </PodiumApp>,
    );
    const drawn = container.querySelector(".transcript__topics")?.innerHTML;
    expect(drawn).toContain("<h3>One</h3>");

    const problems: unknown[] = [];
    const consoleError = vi.spyOn(console, "error").mockImplementation((...args) => problems.push(args));
    const onOpened = vi.fn();
    await act(async () => {
      // As in the browser: no transcript data, and nobody to draw one.
      hydrateRoot(
        container,
        <PodiumApp intl={intl}>
          <Transcript transcript={null} onPagedShown={() => {}} onOpened={onOpened} />
        </PodiumApp>,
        { onRecoverableError: (error) => problems.push(error) },
      );
    });
    consoleError.mockRestore();
    expect(problems).toEqual([]);
    expect(container.querySelector(".transcript__topics")?.innerHTML).toBe(drawn);
    act(() => {
      fireEvent.click(screen.getByRole("button", { name: "See full transcript" }));
    });
    expect(onOpened).toHaveBeenCalledOnce();
    expect(container.querySelector(".transcript__topics")?.innerHTML).toBe(drawn);
    container.remove();
  });
});
