// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { stubDialog } from "../../../ui/testing/jsdom-stubs";
import { EmbedModal } from "../../embed/components/EmbedModal";
import { BottomBand, bannerVariant, VideoBanner } from "./Promotions";

afterEach(cleanup);
const renderIntl = (element: ReactElement) =>
  render(<PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>{element}</PodiumApp>);
const flags = (human: boolean, edu: boolean) => ({
  "gm-view-page-banner-human-connection": human,
  "gm-view-page-banner-human-connection-edu": edu,
});

describe("banner and band", () => {
  it("R6.5 the banner's wording follows the two flags; an unknown flag set throws (R5.4)", () => {
    expect(bannerVariant(flags(false, false))).toBe("default");
    expect(bannerVariant(flags(true, false))).toBe("humanConnection");
    expect(bannerVariant(flags(true, true))).toBe("humanConnectionEdu");
    expect(() => bannerVariant({})).toThrow("Feature not passed from backend");
  });

  it("R4.10 R2.11 closes when asked; the edu variant learns more at /edu/prezi-video-edu", () => {
    renderIntl(<VideoBanner features={flags(false, true)} oid="abcdefghijkl" />);
    // The visible words first, then what it leads to (issue 30: a link that says where it goes).
    expect(screen.getByRole("link", { name: "Learn more about Podium Video" }).getAttribute("href")).toBe(
      "/edu/prezi-video-edu",
    );
    expect(screen.getByText(/Teach face to face/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close the banner" }));
    expect(screen.queryByRole("complementary")).toBeNull();
  });

  it("R2.3 the bottom band's button: /product/ signed in, / signed out", () => {
    const { unmount } = renderIntl(<BottomBand isAuthenticated oid="abcdefghijkl" />);
    expect(screen.getByRole("link", { name: "Learn about Podium" }).getAttribute("href")).toBe("/product/");
    unmount();
    renderIntl(<BottomBand isAuthenticated={false} oid="abcdefghijkl" />);
    expect(screen.getByRole("link", { name: "Learn about Podium" }).getAttribute("href")).toBe("/");
  });

  it("R5.1 responsive-only embeds replace the inputs with an explanation and a learn-more link", () => {
    stubDialog();
    renderIntl(
      <EmbedModal
        open
        onClose={() => {}}
        oid="abcdefghijkl"
        title="T"
        origin="https://podium.example"
        onCopy={() => {}}
        responsiveOnly
        learnMoreUrl="/product/"
      />,
    );
    expect(screen.queryByRole("textbox", { name: "Width" })).toBeNull();
    expect(screen.getByText(/fills the width of the page/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Learn more" }).getAttribute("href")).toBe("/product/");
    expect((screen.getByRole("textbox", { name: "Code" }) as HTMLTextAreaElement).value).toContain(
      // Issue 34: the responsive code (the modal's default) fills the container at the page's shape.
      'style="position:relative;width:100%;height:0;padding-bottom:calc(56.25% + 56px)',
    );
  });
});
