// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { stubResizeObserver } from "../../../ui/testing/jsdom-stubs";
import { previewOf } from "../preview";
import { PREVIEW_DEFAULT_WIDTH, SlidePreview } from "./SlidePreview";

afterEach(cleanup);

// jsdom has no ResizeObserver; the preview only needs it to follow the column's width.
stubResizeObserver();

const MARKDOWN = "# One\n## Sub\n---\n# Two\n- a **bold** point\n- [a link](https://example.com/x)";

function draw(theme?: "dark") {
  const initial = previewOf(MARKDOWN, "2");
  return render(
    <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
      <SlidePreview
        markdown={MARKDOWN}
        schemaVersion="2"
        initialMarkdown={MARKDOWN}
        initialPreview={initial}
        theme={theme}
      />
    </PodiumApp>,
  ).container;
}

describe("issue 10: the editor's preview draws each slide with the player's renderer", () => {
  it("each slide is a TopicView on its canvas, scaled into the preview's width", () => {
    const container = draw();
    const canvases = [...container.querySelectorAll<HTMLElement>(".preview-slide__canvas")];
    expect(canvases).toHaveLength(2);
    expect(canvases[0]?.style.width).toBe("1600px");
    expect(canvases[0]?.style.transform).toContain(`var(--preview-width, ${PREVIEW_DEFAULT_WIDTH}) / 1600`);
    expect(canvases[0]?.querySelector(".topic .slide__text--title")?.textContent).toBe("One");
    expect(canvases[1]?.querySelector(".topic strong")?.textContent).toBe("bold");
    expect(canvases[1]?.querySelector("a")?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  it("the deck's theme is a class on the preview", () => {
    expect(draw("dark").querySelector(".editor-preview__slides")?.className).toContain("slide-theme--dark");
    cleanup();
    expect(draw().querySelector(".editor-preview__slides")?.className).toContain("slide-theme--light");
  });
});
