// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { messagesFor } from "../i18n/catalogues";
import { createPodiumIntl } from "../i18n/podium-intl";
import { Modal } from "./Modal";
import { PodiumApp } from "./PodiumApp";

/**
 * jsdom's <dialog> doesn't close the way a browser's does: here close() behaves as the HTML
 * standard says (the open attribute goes, then a "close" event is queued), as in Chromium.
 */
const real = { showModal: HTMLDialogElement.prototype.showModal, close: HTMLDialogElement.prototype.close };
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    setTimeout(() => this.dispatchEvent(new Event("close")));
  };
});
afterAll(() => {
  HTMLDialogElement.prototype.showModal = real.showModal;
  HTMLDialogElement.prototype.close = real.close;
});
afterEach(cleanup);

function ControlledModal({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal
        open={open}
        title="Embed"
        onClose={() => {
          setOpen(false);
          onClose();
        }}
      >
        <p>Body</p>
      </Modal>
    </PodiumApp>
  );
}

/** Lets the dialog's queued "close" event (if any) fire. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe("modal closing (issue 14 item 7: close_modal was sent twice)", () => {
  it("issue 14 item 7 the close button calls onClose once, not again from the dialog's close event", async () => {
    const onClose = vi.fn();
    render(<ControlledModal onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(document.querySelector("dialog")?.open).toBe(false));
    await settle();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("issue 14 item 7 Escape and a click on the backdrop each call onClose once", async () => {
    const onClose = vi.fn();
    render(<ControlledModal onClose={onClose} />);
    const dialog = document.querySelector("dialog") as HTMLDialogElement;
    fireEvent(dialog, new Event("cancel", { cancelable: true }));
    await settle();
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Open", hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    fireEvent.click(dialog);
    await settle();
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("issue 14 item 7 a close the page didn't ask for (the browser's own) still calls onClose, once", async () => {
    const onClose = vi.fn();
    render(<ControlledModal onClose={onClose} />);
    const dialog = document.querySelector("dialog") as HTMLDialogElement;
    act(() => dialog.close());
    await settle();
    await settle();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
