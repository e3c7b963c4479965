// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../../../i18n/catalogues";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import { PodiumApp } from "../../../ui/PodiumApp";
import { ERROR_SHAKE_MS, LikeButton, type LikeButtonProps, UNLIKED_ANIMATION_MS } from "./LikeButton";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const intl = createPodiumIntl("en", messagesFor("en"));
const renderIntl = (element: ReactElement) => render(<PodiumApp intl={intl}>{element}</PodiumApp>);
const props = (overrides: Partial<LikeButtonProps> = {}): LikeButtonProps => ({
  oid: "abcdefghijkl",
  likesCount: 1234,
  hasLiked: false,
  isAuthenticated: true,
  onLoggedOutLike: vi.fn(),
  sendLike: vi.fn(async () => {}),
  ...overrides,
});
const button = () => screen.getByRole("button");
const count = () => button().querySelector(".like-button__count")?.textContent;
const flush = () => act(async () => {});

describe("like button", () => {
  it("R4.3 renders nothing when likesCount is undefined", () => {
    const { container } = renderIntl(<LikeButton {...props({ likesCount: undefined })} />);
    expect(container.querySelector(".like-button")).toBeNull();
  });

  it("R9.8 shows the count in locale number format", () => {
    renderIntl(<LikeButton {...props()} />);
    expect(count()).toBe("1,234");
  });

  it("R4.4 logged out: a click calls the handler with the oid and does nothing else", async () => {
    const p = props({ isAuthenticated: false });
    renderIntl(<LikeButton {...p} />);
    fireEvent.click(button());
    await flush();
    expect(p.onLoggedOutLike).toHaveBeenCalledWith("abcdefghijkl");
    expect(p.sendLike).not.toHaveBeenCalled();
    expect(count()).toBe("1,234");
    expect(button().getAttribute("aria-pressed")).toBe("false");
  });

  it("R4.5 like: liked at once, +1, liked animation, then the call", async () => {
    const p = props();
    renderIntl(<LikeButton {...p} />);
    fireEvent.click(button());
    expect(button().getAttribute("aria-pressed")).toBe("true");
    expect(count()).toBe("1,235");
    expect(button().getAttribute("data-animation")).toBe("liked");
    await flush();
    expect(p.sendLike).toHaveBeenCalledWith(true);
  });

  it("R4.5 R8.2 R9.3 a failed like reverts and shakes for about 500 ms", async () => {
    renderIntl(<LikeButton {...props({ sendLike: vi.fn(async () => Promise.reject(new Error("Forbidden"))) })} />);
    fireEvent.click(button());
    await flush();
    expect(button().getAttribute("aria-pressed")).toBe("false");
    expect(count()).toBe("1,234");
    expect(button().getAttribute("data-animation")).toBe("error");
    act(() => {
      vi.advanceTimersByTime(ERROR_SHAKE_MS);
    });
    expect(button().getAttribute("data-animation")).toBe("default");
  });

  it("R4.6 R9.3 unlike: −1 with the broken heart, reset after 2 s; a failure reverts to liked", async () => {
    renderIntl(<LikeButton {...props({ hasLiked: true })} />);
    fireEvent.click(button());
    expect(count()).toBe("1,233");
    expect(button().getAttribute("data-animation")).toBe("unliked");
    await flush();
    act(() => {
      vi.advanceTimersByTime(UNLIKED_ANIMATION_MS - 1);
    });
    expect(button().getAttribute("data-animation")).toBe("unliked");
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(button().getAttribute("data-animation")).toBe("default");
    cleanup();
    renderIntl(
      <LikeButton {...props({ hasLiked: true, sendLike: vi.fn(async () => Promise.reject(new Error("x"))) })} />,
    );
    fireEvent.click(button());
    await flush();
    expect(button().getAttribute("aria-pressed")).toBe("true");
    expect(count()).toBe("1,234");
    expect(button().getAttribute("data-animation")).toBe("error");
  });

  it("R4.3 its state resets when the oid changes", async () => {
    const { rerender } = renderIntl(<LikeButton {...props()} />);
    fireEvent.click(button());
    await flush();
    expect(count()).toBe("1,235");
    rerender(
      <PodiumApp intl={intl}>
        <LikeButton {...props({ oid: "zyxwvutsrqpo", likesCount: 7 })} />
      </PodiumApp>,
    );
    expect(count()).toBe("7");
    expect(button().getAttribute("aria-pressed")).toBe("false");
  });
});
