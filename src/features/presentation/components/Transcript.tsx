import { useCallback, useContext, useEffect, useRef, useState } from "react";
import type { Transcript as TranscriptData } from "../../../document/transcript";
import { FormattedMessage } from "../../../i18n/intl";
import { ServerMarkup } from "../../../ui/ServerMarkup";
import { TRANSCRIPT_ELEMENT_ID } from "../page-data";
import { isDrawnHtml, TranscriptMarkup } from "./transcript-markup";

/** Spec §9 transcript constants. */
export const TRANSCRIPT_COLLAPSED_PX = 500;
export const TRANSCRIPT_EXPANDED_EXTRA_PX = 48;
export const TRANSCRIPT_REMEASURE_MS = 500;
export const PAGED_TRANSCRIPT_EVENT_MS = 1000;

type TranscriptState = "unmeasured" | "whole" | "collapsed" | "expanded";

/**
 * Spec §4, §5, §9: starts collapsed at 500 px with See/Hide full transcript; shown whole with
 * no toggle when shorter; expanded to its content + 48 px; measured again after 500 ms; tells
 * when a paged transcript was shown (after 1 s) and when it was opened. Until measured (and
 * without JavaScript) it is shown whole. Its text is drawn on the server only (issue 11): in the
 * browser the transcript's data is null and hydration keeps the server's markup (ServerMarkup).
 */
export function Transcript({
  transcript,
  onPagedShown,
  onOpened,
  currentStep = null,
}: {
  transcript: TranscriptData | null;
  onPagedShown: () => void;
  onOpened: () => void;
  /** Issue 12: the first step of the topic on screen while playing; its section is marked. */
  currentStep?: number | null;
}) {
  const draw = useContext(TranscriptMarkup);
  const drawing = transcript && draw ? draw(transcript) : null;
  const contentRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<TranscriptState>("unmeasured");
  const [contentHeight, setContentHeight] = useState(0);

  const measure = useCallback(() => {
    const height = contentRef.current?.scrollHeight ?? 0;
    setContentHeight(height);
    setState((current) => {
      if (height <= TRANSCRIPT_COLLAPSED_PX) return "whole";
      return current === "expanded" ? "expanded" : "collapsed";
    });
  }, []);

  useEffect(() => {
    measure();
    const again = setTimeout(measure, TRANSCRIPT_REMEASURE_MS);
    return () => clearTimeout(again);
  }, [measure]);

  useEffect(() => {
    const timer = setTimeout(() => {
      if ((contentRef.current?.scrollHeight ?? 0) > TRANSCRIPT_COLLAPSED_PX) onPagedShown();
    }, PAGED_TRANSCRIPT_EVENT_MS);
    return () => clearTimeout(timer);
  }, [onPagedShown]);

  // Issue 12: the section on screen says so (aria-current="step"), moved as the player moves. The
  // sections are the server's markup (ServerMarkup), so the mark is set on its links directly.
  useEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    for (const link of content.querySelectorAll(".transcript__topic > a[aria-current]"))
      link.removeAttribute("aria-current");
    if (currentStep === null) return;
    content.querySelector(`.transcript__topic > a[href="#step=${currentStep}"]`)?.setAttribute("aria-current", "step");
  }, [currentStep]);

  const toggle = () => {
    if (state === "collapsed") {
      setState("expanded");
      onOpened();
    } else if (state === "expanded") {
      setState("collapsed");
      contentRef.current?.closest("section")?.scrollIntoView({ block: "start" });
    }
  };

  const maxHeight =
    state === "collapsed"
      ? TRANSCRIPT_COLLAPSED_PX
      : state === "expanded"
        ? contentHeight + TRANSCRIPT_EXPANDED_EXTRA_PX
        : undefined;
  return (
    <div className={`transcript__frame transcript__frame--${state}`} data-state={state}>
      <div id={TRANSCRIPT_ELEMENT_ID} ref={contentRef} className="transcript__content" style={{ maxHeight }}>
        {drawing !== null && isDrawnHtml(drawing) ? (
          <ServerMarkup className="transcript__topics" html={drawing.html} />
        ) : (
          <ServerMarkup className="transcript__topics">{drawing}</ServerMarkup>
        )}
      </div>
      {state === "collapsed" || state === "expanded" ? (
        <button
          type="button"
          className="button transcript__toggle"
          aria-expanded={state === "expanded"}
          aria-controls={TRANSCRIPT_ELEMENT_ID}
          onClick={toggle}
        >
          <FormattedMessage id={state === "collapsed" ? "transcript.seeFull" : "transcript.hideFull"} />
        </button>
      ) : null}
    </div>
  );
}
