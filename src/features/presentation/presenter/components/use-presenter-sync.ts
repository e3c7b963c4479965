import { useCallback, useEffect, useRef, useState } from "react";
import {
  initialPresenterState,
  type PresenterMessage,
  type PresenterSyncState,
  presenterChannelName,
  readAudienceMessage,
  receiveAudienceMessage,
  requestStep,
} from "../sync";

/**
 * The presenter's side: its own step (moved at once by `go`, so it works with no audience
 * window), kept in step with the audience's player over the presentation's BroadcastChannel.
 */
export function usePresenterSync(
  oid: string,
  total: number,
): { state: PresenterSyncState; go: (step: number) => void; jump: (step: number) => void } {
  const [state, setState] = useState(() => initialPresenterState(total));
  const stateRef = useRef(state);
  const channelRef = useRef<BroadcastChannel | null>(null);

  const update = useCallback((next: PresenterSyncState) => {
    stateRef.current = next;
    setState(next);
  }, []);

  // The document's own step count wins over the page's once it is loaded.
  useEffect(() => {
    if (stateRef.current.total !== total)
      update({ ...stateRef.current, total, step: Math.min(stateRef.current.step, Math.max(0, total - 1)) });
  }, [total, update]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(presenterChannelName(oid));
    channelRef.current = channel;
    channel.onmessage = (event: MessageEvent) => {
      const message = readAudienceMessage(event.data, stateRef.current.total);
      if (message) update(receiveAudienceMessage(stateRef.current, message));
    };
    const hello: PresenterMessage = { type: "hello" };
    channel.postMessage(hello);
    return () => {
      channel.close();
      channelRef.current = null;
    };
  }, [oid, update]);

  /** Asks the player to move, and moves here at once. */
  const go = useCallback(
    (step: number) => {
      const result = requestStep(stateRef.current, step);
      if (!result) return;
      update(result.state);
      channelRef.current?.postMessage(result.message);
    },
    [update],
  );

  /** Starts at a step without asking the player (the opener's #step=N). */
  const jump = useCallback(
    (step: number) => {
      if (step >= 0 && step < stateRef.current.total) update({ ...stateRef.current, step });
    },
    [update],
  );

  return { state, go, jump };
}
