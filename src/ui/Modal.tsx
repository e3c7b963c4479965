import { type ReactNode, useEffect, useRef } from "react";
import { useIntl } from "../i18n/intl";
import { Icon } from "./Icon";

/**
 * A modal dialog on the native <dialog>: focus moves in and is kept there, Escape closes,
 * and (spec §4) a click on the background or the close icon closes it too.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  maxWidth,
  minHeight,
  className,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  maxWidth?: number;
  /** The dialog's least height (its box, padding included); it grows with its content. */
  minHeight?: number;
  className?: string;
}) {
  const intl = useIntl();
  const ref = useRef<HTMLDialogElement>(null);
  // Issue 14 item 7: closing through onClose makes the parent pass open={false}, and this effect
  // then closes the <dialog>, whose "close" event must not call onClose a second time (that sent
  // and stored close_modal twice). Only a close the page didn't ask for (the browser's own, e.g.
  // a repeated Escape it won't let be cancelled) reaches onClose from the "close" event.
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard closes it with Escape (onCancel) or the close button
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ""}`}
      aria-labelledby="modal-title"
      style={maxWidth || minHeight ? { maxWidth, minHeight } : undefined}
      onClose={() => {
        if (openRef.current) onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {open ? (
        <div className="modal__body">
          <div className="modal__head">
            <h2 id="modal-title">{title}</h2>
            <button
              type="button"
              className="modal__close"
              onClick={onClose}
              aria-label={intl.formatMessage({ id: "modal.close" })}
            >
              <Icon path="M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z" />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
