/**
 * What jsdom lacks and the DOM tests' components only need to exist: observers that never report
 * (the components keep their first layout), and a dialog that opens and closes by its attribute.
 */

/** ResizeObserver (the stage, the preview and the player follow their box's width with it). */
export function stubResizeObserver(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

/** IntersectionObserver (parts loaded where shown). */
export function stubIntersectionObserver(): void {
  globalThis.IntersectionObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof IntersectionObserver;
}

/** HTMLDialogElement's showModal and close (the modals). */
export function stubDialog(): void {
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
}
