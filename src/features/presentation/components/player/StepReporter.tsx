import { useEffect, useRef } from "react";
import { onPageOrigin } from "../../../../lib/http-client";
import { currentUsageSession, trackEvent } from "../../../events/client";
import { createStepRecorder, STEP_ENGAGEMENT_EVENT } from "../../../events/step-engagement";
import { EVENT_FAMILIES, visitorIdPath } from "../../../events/usage-event";

/**
 * Issue 33 item 6: whether the visitor allowed what is kept of a visit (performance cookies), or
 * none is asked: exactly when the usage session lives in its cookie (lib/usage-session.ts).
 */
function consented(): boolean {
  try {
    return currentUsageSession().cookieId !== null;
  } catch {
    return false;
  }
}

/**
 * Issue 33: the visitor id the server signs for this page load's usage session and `oid` (as the
 * view page's loaded event asks for one, events/client.ts), which a step event needs to count;
 * null for the owner, or when asking fails (where events aren't sent, trackEvent sends none
 * anyway). Here, in the viewer's chunk, so the view page loads none of it before Present (issue
 * 30's budget).
 */
async function fetchVisitorId(oid: string): Promise<string | null> {
  try {
    const session = encodeURIComponent(currentUsageSession().id);
    const response = await fetch(onPageOrigin(`${visitorIdPath(oid)}?session_id=${session}`), {
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
    const body = response.ok ? ((await response.json()) as { visitorId?: unknown }) : null;
    return typeof body?.visitorId === "string" ? body.visitorId : null;
  } catch {
    return null;
  }
}

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
        if (!consented()) return;
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
