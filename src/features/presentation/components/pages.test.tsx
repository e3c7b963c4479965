// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { stubResizeObserver } from "../../../ui/testing/jsdom-stubs";
import { trackEvent } from "../../events/client";
import { flushTimers } from "../../events/testing/held-log";
import type { PresentationPageData } from "../page-data";
import { viewPageData } from "../testing/page-data";
import { PrivateViewPage } from "./PrivateViewPage";
import { CircularProgress } from "./player/CircularProgress";

beforeAll(stubResizeObserver);
vi.mock("../../events/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../events/client")>()),
  trackEvent: vi.fn(async () => true),
}));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(trackEvent).mockClear();
});

const flush = flushTimers;

function renderWithIntl(element: ReactElement) {
  return render(<PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>{element}</PodiumApp>);
}

/** A private deck seen through a view link (spec §2): viewPageData with what differs. */
function pageData(overrides: Partial<PresentationPageData> = {}): PresentationPageData {
  return viewPageData({
    title: "Board update",
    description: "",
    privacy: "private",
    isPublicView: false,
    viewCount: 0,
    likesCount: 0,
    viewLink: { link_id: "link-link-link-link", key_type: "view_link" },
    tags: "",
    evaluatedFeatures: {},
    canonicalPath: "/p/abcdefghijkl/board-update/",
    thumbnailUrl: "/view/link-link-link-link/thumbnail.svg",
    documentUrl: "/view/link-link-link-link/document.json",
    previewUrl: "/view/link-link-link-link/thumbnail.svg",
    ...overrides,
  });
}

describe("private view page", () => {
  it("R2.20 R6.1 shows the header with Edit for a viewer with the edit right", () => {
    renderWithIntl(<PrivateViewPage data={pageData({ viewerRights: { edit: true, comment: true } })} />);
    expect(screen.getByRole("heading", { level: 1, name: "Board update" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Edit" }).getAttribute("href")).toBe("/p/edit/abcdefghijkl/");
    expect(screen.queryByRole("link", { name: "Comment" })).toBeNull();
  });

  it("R6.1 shows Comment (opening commenting mode) for a commenter without the edit right", () => {
    renderWithIntl(<PrivateViewPage data={pageData({ viewerRights: { edit: false, comment: true } })} />);
    expect(screen.getByRole("link", { name: "Comment" }).getAttribute("href")).toBe("/p/edit/abcdefghijkl/#present");
    expect(screen.queryByRole("link", { name: "Edit" })).toBeNull();
  });

  it("R6.2 shows no header without rights, for classic presentations, or in embed mode", () => {
    for (const data of [
      pageData(),
      pageData({ schemaVersion: "0", viewerRights: { edit: true, comment: true } }),
      pageData({ embedMode: true, viewerRights: { edit: true, comment: true } }),
    ]) {
      const { container, unmount } = renderWithIntl(<PrivateViewPage data={data} />);
      expect(container.querySelector(".private-header")).toBeNull();
      // Without the header, the player's title is the page's heading.
      expect(screen.getByRole("heading", { level: 1, name: "Board update" })).toBeTruthy();
      unmount();
    }
  });
});

describe("private header actions", () => {
  it("R4.11 Edit and Comment log open editor / open for commenting, then go to the editor once the log settles", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const cases: [PresentationPageData["viewerRights"], string, string, string][] = [
      [{ edit: true, comment: true }, "Edit", "open_editor", "/p/edit/abcdefghijkl/"],
      [{ edit: false, comment: true }, "Comment", "open_for_commenting", "/p/edit/abcdefghijkl/#present"],
    ];
    for (const [viewerRights, name, eventName, path] of cases) {
      let settle: (ok: boolean) => void = () => {};
      vi.mocked(trackEvent).mockImplementationOnce(
        () =>
          new Promise<boolean>((resolve) => {
            settle = resolve;
          }),
      );
      assign.mockClear();
      const { unmount } = renderWithIntl(<PrivateViewPage data={pageData({ viewerRights })} />);
      expect(fireEvent.click(screen.getByRole("link", { name }))).toBe(false);
      expect(trackEvent).toHaveBeenLastCalledWith(eventName, { oid: "abcdefghijkl" });
      await flush();
      await flush();
      expect(assign).not.toHaveBeenCalled();
      // Spec §4, §8: success or failure, the navigation follows.
      await act(async () => settle(false));
      expect(assign).toHaveBeenCalledWith(new URL(path, window.location.href).href);
      unmount();
    }
  });
});

describe("start overlay and preview", () => {
  it("R2.27 shows title, owner, last modified and a Present button", () => {
    renderWithIntl(<PrivateViewPage data={pageData()} />);
    expect(screen.getByText("Ada Okafor")).toBeTruthy();
    expect(screen.getByText("March 4, 2026")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Present" })).toBeTruthy();
  });

  it("R4.1 R4.2 the blurred preview and the gradient show once the preview loads; solid dark before and on failure", () => {
    const { container } = renderWithIntl(<PrivateViewPage data={pageData()} />);
    const overlay = container.querySelector(".overlay");
    const preview = container.querySelector<HTMLImageElement>(".overlay__preview");
    if (!overlay || !preview) throw new Error("no overlay");
    // Loading: in the page but not yet arrived, so nothing is painted (an <img alt=""> draws nothing
    // until its image comes); it paints as soon as it comes, script or not (issue 30).
    expect(preview.hidden).toBe(false);
    expect(preview.complete).toBe(false);
    expect(overlay.classList.contains("overlay--preview")).toBe(false);
    act(() => {
      fireEvent.load(preview);
    });
    expect(preview.hidden).toBe(false);
    expect(overlay.classList.contains("overlay--preview")).toBe(true);
    act(() => {
      fireEvent.error(preview);
    });
    // Fallback without a fallback URL: no preview, solid background.
    expect(preview.hidden).toBe(true);
    expect(overlay.classList.contains("overlay--preview")).toBe(false);
  });

  it("R4.1 issue 28: the fallback is tried once; when it fails too, no image is asked for again", () => {
    const fallback = "/p/abcdefghijkl/thumbnail-plain.svg";
    const { container } = renderWithIntl(<PrivateViewPage data={{ ...pageData(), fallbackPreviewUrl: fallback }} />);
    const player = container.querySelector(".player");
    const preview = container.querySelector<HTMLImageElement>(".overlay__preview");
    if (!player || !preview) throw new Error("no player");
    const previewUrl = preview.getAttribute("src");
    act(() => {
      fireEvent.error(preview);
    });
    expect(player.getAttribute("data-preview-state")).toBe("fallback");
    expect(preview.getAttribute("src")).toBe(fallback);
    expect(preview.hidden).toBe(false);
    for (const _ of [1, 2, 3]) {
      act(() => {
        fireEvent.error(preview);
      });
      expect(player.getAttribute("data-preview-state")).toBe("none");
      // No address: neither the preview nor the fallback is fetched again.
      expect(preview.hasAttribute("src")).toBe(false);
      expect(preview.hidden).toBe(true);
    }
    expect(previewUrl).not.toBe(fallback);
  });
});

describe("circular progress", () => {
  it("R5.3 R2.28 reports the clamped percentage", () => {
    const { rerender } = renderWithIntl(<CircularProgress percent={150} size={168} label="Loading…" />);
    expect(screen.getByRole("progressbar", { name: "Loading…" }).getAttribute("aria-valuenow")).toBe("100");
    // What is drawn is clamped too: a full ring (no dash offset) and 100%, never 150%.
    const arc = () => document.querySelector(".progress__bar")?.getAttribute("stroke-dashoffset");
    expect(arc()).toBe("0");
    expect(document.querySelector(".progress__value")?.textContent).toBe("100%");
    rerender(
      <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
        <CircularProgress percent={-20} size={80} label="Loading…" />
      </PodiumApp>,
    );
    const bar = screen.getByRole("progressbar", { name: "Loading…" });
    expect(bar.getAttribute("aria-valuenow")).toBe("0");
    expect(bar.style.width).toBe("80px");
  });
});
