// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { messagesFor } from "../i18n/catalogues";
import type { Locale } from "../i18n/locales";
import { createPodiumIntl } from "../i18n/podium-intl";
import { PodiumApp } from "./PodiumApp";
import { AccountMenu, SiteLayout } from "./SiteLayout";
import { ANONYMOUS_SESSION, type SessionInfo } from "./session";

afterEach(cleanup);

const signedIn: SessionInfo = {
  ...ANONYMOUS_SESSION,
  isAuthenticated: true,
  viewerName: "Ada Okafor",
  viewerOid: "ada000000000",
  csrfToken: "token",
};

function renderPage(ui: ReactElement, session: SessionInfo = signedIn, locale: Locale = "en") {
  const intl = createPodiumIntl(locale, messagesFor(locale));
  return render(
    <PodiumApp intl={intl} session={session}>
      {ui}
    </PodiumApp>,
  );
}

describe("issue 30: the account menu's code reaches signed-in people only", () => {
  // First in the file: nothing has loaded the menu's chunk yet.
  it("a browser showing the menu loads its part, then draws it; signed out, nothing is asked for", async () => {
    renderPage(<SiteLayout>content</SiteLayout>, ANONYMOUS_SESSION);
    expect(screen.queryByRole("button", { name: /Ada/ })).toBeNull();
    cleanup();
    renderPage(<SiteLayout>content</SiteLayout>);
    expect(screen.queryByRole("button", { name: "Ada Okafor" })).toBeNull();
    const button = await screen.findByRole("button", { name: "Ada Okafor" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });
});

describe("issue 12: one account menu on every page", () => {
  // What hydration does first in a browser showing the menu (issue 30: it is a part of its own).
  beforeAll(() => AccountMenu.preload());

  it("R2.9 R2.24 a signed-in page's header is the account menu: the name, My dashboard, Account settings, Language, Log out", () => {
    renderPage(<SiteLayout>content</SiteLayout>);
    // No links side by side in the header any more: one button.
    expect(screen.queryByRole("link", { name: "My dashboard" })).toBeNull();
    const button = screen.getByRole("button", { name: "Ada Okafor" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button, { detail: 1 });
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const menu = document.getElementById(button.getAttribute("aria-controls") ?? "");
    expect(menu?.textContent).toContain("Signed in as Ada Okafor");
    expect(screen.getByRole("link", { name: "My dashboard" }).getAttribute("href")).toBe("/dashboard/next/");
    expect(screen.getByRole("link", { name: "Account settings" }).getAttribute("href")).toBe("/settings/");
    const logOut = screen.getByRole("button", { name: "Log out" });
    expect(logOut.closest("form")?.getAttribute("action")).toBe("/logout");
    const form = logOut.closest("form");
    expect((form?.elements.namedItem("_csrf") as HTMLInputElement | null)?.value).toBe("token");
    fireEvent.mouseDown(document.body);
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("signed out, the header keeps Log in and Get started (R2.6)", () => {
    renderPage(<SiteLayout>content</SiteLayout>, ANONYMOUS_SESSION);
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login/");
    expect(screen.getByRole("link", { name: "Get started" }).getAttribute("href")).toBe("/signup/");
    expect(screen.queryByRole("button", { name: /Ada/ })).toBeNull();
  });

  it("keyboard: opening with the keyboard lands on the first entry, arrows move, Escape closes and gives focus back", () => {
    renderPage(<SiteLayout>content</SiteLayout>);
    const button = screen.getByRole("button", { name: "Ada Okafor" });
    button.focus();
    // A keyboard activation is a click with detail 0.
    fireEvent.click(button, { detail: 0 });
    const presentations = screen.getByRole("link", { name: "My dashboard" });
    expect(document.activeElement).toBe(presentations);
    fireEvent.keyDown(presentations, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "Account settings" }));
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: /^Language/ }));
    // The languages stay folded, so the next entry is Log out; Up from the first wraps to the last.
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out" }));
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    expect(document.activeElement).toBe(presentations);
    fireEvent.keyDown(presentations, { key: "ArrowUp" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out" }));
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button);
    // ArrowDown on the closed button opens it too.
    fireEvent.keyDown(button, { key: "ArrowDown" });
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement).toBe(presentations);
  });

  it("focus leaving the menu (Tab past its last entry) closes it", () => {
    renderPage(
      <SiteLayout>
        <a href="/elsewhere">elsewhere</a>
      </SiteLayout>,
    );
    const button = screen.getByRole("button", { name: "Ada Okafor" });
    fireEvent.click(button, { detail: 1 });
    expect(button.getAttribute("aria-expanded")).toBe("true");
    act(() => screen.getByRole("link", { name: "elsewhere" }).focus());
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("Language lists the nine languages by their own names, the current one marked, in the page's language", () => {
    renderPage(<SiteLayout>content</SiteLayout>, signedIn, "de");
    fireEvent.click(screen.getByRole("button", { name: "Ada Okafor" }), { detail: 1 });
    const language = screen.getByRole("button", { name: /^Sprache/ });
    expect(language.textContent).toContain("Deutsch");
    expect(language.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(language);
    expect(language.getAttribute("aria-expanded")).toBe("true");
    const list = screen.getByRole("list", { name: "Sprache" });
    const choices = [...list.querySelectorAll("button")];
    expect(choices.map((choice) => choice.getAttribute("lang"))).toEqual([
      "de",
      "en",
      "es",
      "fr",
      "pt",
      "hu",
      "it",
      "ja",
      "ko",
    ]);
    expect(
      choices.filter((choice) => choice.getAttribute("aria-current") === "true").map((c) => c.textContent),
    ).toEqual(["Deutsch"]);
    expect(screen.getByRole("link", { name: "Mein Dashboard" })).toBeTruthy();
  });
});
