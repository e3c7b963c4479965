import { useEffect, useRef } from "react";
import { fetchVisitorId, trackEvent, visitConsented } from "../../../events/client";
import { createStepRecorder, STEP_ENGAGEMENT_EVENT } from "../../../events/step-engagement";
import { EVENT_FAMILIES } from "../../../events/usage-event";

/**
 * Issue 33 item 1: reports the player's steps (events/step-engagement.ts) through the page's usage
 * events (trackEvent: the usage session, the page's filters, the hosts that don't send), and
 * (issue 33 item 6) only with the visitor's consent to performance cookies, or where none is
 * asked: without it nothing is sent (embeds never ask, so they send none). Each batch carries
 * the visitor id the server signed for this page load, without which it adds nothing. It comes
 * with the viewer's chunk, so the page loads none of it before Present. The owner's and editors'
 * own viewing isn't reported.
 */
export function StepReporter({
  oid,
  step,
  playing,
  linkId,
  canEdit,
}: {
  oid: string;
  step: number;
  /** The viewer shows a step (no overlay over it). */
  playing: boolean;
  linkId: string | null;
  canEdit: boolean;
}) {
  const recorder = useRef<ReturnType<typeof createStepRecorder> | null>(null);
  useEffect(() => {
    if (canEdit) return;
    // Asked once, as the viewer starts; batches go once it is in (by the time the page is hidden
    // it long is, and then the batch still goes within the pagehide handler's task).
    const visitorId = fetchVisitorId(oid);
    const made = createStepRecorder({
      link: linkId,
      now: () => performance.now(),
      schedule: (run, ms) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      },
      send: (batch) => {
        if (!visitConsented()) return;
        void visitorId.then((id) =>
          trackEvent(
            STEP_ENGAGEMENT_EVENT,
            id === null ? { oid, ...batch } : { oid, ...batch, visitor_id: id },
            EVENT_FAMILIES.analyticsWebgl,
          ),
        );
      },
    });
    recorder.current = made;
    const onVisibility = () => (document.visibilityState === "hidden" ? made.hide() : made.show());
    const onPageHide = () => made.hide();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
      made.hide();
      recorder.current = null;
    };
  }, [oid, linkId, canEdit]);
  useEffect(() => {
    recorder.current?.at(playing ? step : null);
  }, [step, playing]);
  return null;
}
