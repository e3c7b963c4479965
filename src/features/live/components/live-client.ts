import { useEffect, useRef, useState } from "react";
import { onPageOrigin } from "../../../lib/http-client";
import { applyLiveEvent, type LiveEvent, type LiveState } from "../rules";

/** The event stream's event names (one per LiveEvent type). */
const EVENT_TYPES = ["state", "step", "settings", "questions", "ended", "reactions"] as const;

export type StreamStatus = "connecting" | "open" | "reconnecting";

/**
 * Issue 35: a live session's state, kept by its event stream (EventSource reconnects by itself and
 * sends Last-Event-ID, so the server sends the state again only if something was missed).
 * A stream the server refuses (the session ended or is gone) counts as ended.
 */
export function useLiveState(
  eventsUrl: string | null,
  initial: LiveState,
  onReactions?: (counts: Extract<LiveEvent, { type: "reactions" }>["counts"]) => void,
): { state: LiveState; status: StreamStatus } {
  const [state, setState] = useState(initial);
  const [status, setStatus] = useState<StreamStatus>("connecting");
  const reactionsRef = useRef(onReactions);
  reactionsRef.current = onReactions;
  useEffect(() => {
    if (!eventsUrl || typeof EventSource === "undefined") return;
    const source = new EventSource(onPageOrigin(eventsUrl));
    const onEvent = (message: MessageEvent<string>) => {
      let event: LiveEvent;
      try {
        event = JSON.parse(message.data) as LiveEvent;
      } catch {
        return;
      }
      if (event.type === "reactions") {
        reactionsRef.current?.(event.counts);
        return;
      }
      if (event.type === "ended") source.close();
      setState((current) => applyLiveEvent(current, event));
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent as EventListener);
    source.onopen = () => setStatus("open");
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        setState((current) => (current.ended ? current : { ...current, ended: true }));
      } else setStatus("reconnecting");
    };
    return () => source.close();
  }, [eventsUrl]);
  return { state, status };
}

export interface PostResult {
  ok: boolean;
  status: number;
  message: string | null;
  body: unknown;
}

/** A live call: JSON body, the page's CSRF token in its header (the app's CSRF scheme). */
export async function livePost(url: string, body: unknown, csrfToken: string | null): Promise<PostResult> {
  try {
    const response = await fetch(onPageOrigin(url), {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(csrfToken ? { "x-xsrf-token": csrfToken } : {}),
      },
      body: JSON.stringify(body ?? {}),
    });
    const parsed = (await response.json().catch(() => null)) as { message?: string } | null;
    return {
      ok: response.ok,
      status: response.status,
      message: response.ok ? null : (parsed?.message ?? null),
      body: parsed,
    };
  } catch {
    return { ok: false, status: 0, message: null, body: null };
  }
}
