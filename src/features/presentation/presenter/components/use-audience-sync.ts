import { useEffect, useRef } from "react";
import { type AudienceMessage, presenterChannelName, readPresenterMessage } from "../channel";

/**
 * The audience's side of the presenter view (used by the Player while it plays): posts the
 * player's step whenever it changes, answers a presenter view's hello, and moves when a
 * presenter view asks (`onGo`, for a step already checked to be in range). Inactive while
 * `total` is 0 (nothing loaded yet) and where the browser has no BroadcastChannel.
 */
export function useAudienceSync({
  oid,
  step,
  total,
  onGo,
}: {
  oid: string;
  step: number;
  total: number;
  onGo: (step: number) => void;
}): void {
  const channelRef = useRef<BroadcastChannel | null>(null);
  const stepRef = useRef(step);
  stepRef.current = step;
  const onGoRef = useRef(onGo);
  onGoRef.current = onGo;
  /** The presenter's request the next posted step answers. */
  const replyTo = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (total === 0 || typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(presenterChannelName(oid));
    channelRef.current = channel;
    const post = (message: AudienceMessage) => channel.postMessage(message);
    channel.onmessage = (event: MessageEvent) => {
      const message = readPresenterMessage(event.data, total);
      if (!message) return;
      if (message.type === "hello") {
        post({ type: "state", step: stepRef.current, total });
      } else if (message.step === stepRef.current) {
        post({ type: "state", step: stepRef.current, total, replyTo: message.seq });
      } else {
        replyTo.current = message.seq;
        onGoRef.current(message.step);
      }
    };
    const bye = () => post({ type: "bye" });
    window.addEventListener("pagehide", bye);
    return () => {
      window.removeEventListener("pagehide", bye);
      bye();
      channel.close();
      channelRef.current = null;
    };
  }, [oid, total]);

  useEffect(() => {
    const channel = channelRef.current;
    if (!channel) return;
    const answering = replyTo.current;
    replyTo.current = undefined;
    const message: AudienceMessage =
      answering === undefined ? { type: "state", step, total } : { type: "state", step, total, replyTo: answering };
    channel.postMessage(message);
  }, [step, total]);
}

/** The same, as a component the player mounts once the viewer has loaded (issue 30: in its chunk). */
export function AudienceSync(props: Parameters<typeof useAudienceSync>[0]): null {
  useAudienceSync(props);
  return null;
}
