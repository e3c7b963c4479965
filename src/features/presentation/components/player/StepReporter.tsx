import { useEffect, useRef } from "react";
import { trackEvent } from "../../../events/client";
import { createStepRecorder, STEP_ENGAGEMENT_EVENT } from "../../../events/step-engagement";
import { EVENT_FAMILIES } from "../../../events/usage-event";

/**
 * Issue 33 item 1: reports the player's steps (events/step-engagement.ts) through the page's usage
 * events, under the same rules as every other event (trackEvent: the usage session and its
 * consent, the page's filters, the hosts that don't send). It comes with the viewer's chunk, so
 * the page loads none of it before Present. The owner's and editors' own viewing isn't reported.
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
    const made = createStepRecorder({
      link: linkId,
      now: () => performance.now(),
      schedule: (run, ms) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      },
      send: (batch) => void trackEvent(STEP_ENGAGEMENT_EVENT, { oid, ...batch }, EVENT_FAMILIES.analyticsWebgl),
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
