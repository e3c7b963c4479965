import type { PresentationDocument } from "../../../../document/schema";
import {
  EMBED_API_VERSION,
  type EmbedEvent,
  type EmbedState,
  originAllowed,
  parseEmbedRequest,
} from "../../embed-protocol";
import { stepTitles } from "../../step-titles";

/**
 * What the embed API asks of the player (Player.tsx fills it in on every render; what can live
 * here does, to keep the view page's JavaScript small).
 */
export interface EmbedApiTarget {
  state: EmbedState;
  /** The loaded document, or its address (for the steps' titles). */
  document: PresentationDocument | string;
  /** Plays this step (1-based), loading the viewer first if needed, without taking the focus. */
  goTo: (step: number) => void;
  /** Past the last step: the restart overlay (or the first step again, looping). */
  end: () => void;
}

async function documentOf(player: EmbedApiTarget): Promise<PresentationDocument> {
  if (typeof player.document !== "string") return player.document;
  const response = await fetch(player.document);
  if (!response.ok) throw new Error(`document ${response.status}`);
  return (await response.json()) as PresentationDocument;
}

/** next: starts the presentation where it stands, then moves on; past the last step it ends. */
function next({ state, goTo, end }: EmbedApiTarget): void {
  if (state.ended) return;
  if (!state.playing) goTo(state.step);
  else if (state.step < state.total) goTo(state.step + 1);
  else end();
}

/** The page that frames this one, or null when it isn't framed. */
const hostWindow = (): Window | null => (window.parent !== window ? window.parent : null);

const post = (message: Record<string, unknown>, targetOrigin = "*") =>
  hostWindow()?.postMessage({ podium: EMBED_API_VERSION, ...message }, targetOrigin);

/**
 * Issue 34 item 3: answers the framing page's well-formed requests. Only the parent window is
 * heard (not another frame, not a window this one opened), and when the owner lists the sites
 * that may embed the deck, only from one of them. Anything else gets no answer at all.
 */
export function listenForEmbedApi(allowedHosts: readonly string[], target: () => EmbedApiTarget | null): () => void {
  const onMessage = (event: MessageEvent) => {
    const host = hostWindow();
    if (!host || event.source !== host) return;
    if (allowedHosts.length > 0 && !originAllowed(event.origin, allowedHosts)) return;
    const request = parseEmbedRequest(event.data);
    const player = target();
    if (!request || !player) return;
    const answer = (result: unknown) => post({ id: request.id, result }, event.origin === "null" ? "*" : event.origin);
    // A move is answered once the player has drawn it (or on the next task), and a question asked
    // meanwhile waits behind it, so `await goTo(3); await getState()` says step 3.
    const moved = () => later(() => answer(true));
    switch (request.method) {
      case "next":
        next(player);
        return moved();
      case "prev":
        player.goTo(Math.max(1, player.state.step - 1));
        return moved();
      case "goTo": {
        const { total } = player.state;
        if ((request.step ?? 0) > total) {
          return post({ id: request.id, error: "step out of range" }, event.origin === "null" ? "*" : event.origin);
        }
        player.goTo(request.step ?? 1);
        return moved();
      }
      case "getState":
        if (queued.length === 0) return answer(player.state);
        return later(() => answer(target()?.state ?? player.state));
      case "getSteps":
        return void documentOf(player).then(
          (document) => answer(stepTitles(document)),
          () => post({ id: request.id, error: "steps unavailable" }, event.origin === "null" ? "*" : event.origin),
        );
    }
  };
  window.addEventListener("message", onMessage);
  announced = null;
  const player = target();
  if (player) {
    const state = player.state;
    post({ event: "ready" satisfies EmbedEvent, ...state });
    announced = state;
  }
  return () => window.removeEventListener("message", onMessage);
}

let announced: EmbedState | null = null;

/** Answers waiting for the player's next render (announceEmbedState), or the next task at the latest. */
let queued: (() => void)[] = [];
function flush(): void {
  const now = queued;
  queued = [];
  for (const send of now) send();
}
function later(send: () => void): void {
  queued.push(send);
  setTimeout(flush, 0);
}

/** Sends stepchange when the step on screen changes while playing, and ended when the end is reached. */
export function announceEmbedState(player: EmbedApiTarget | null): void {
  if (!player || !hostWindow()) return;
  const state = player.state;
  const before = announced;
  announced = state;
  if (before && state.playing && (!before.playing || state.step !== before.step)) {
    post({ event: "stepchange" satisfies EmbedEvent, ...state });
  }
  if (before && state.ended && !before.ended) post({ event: "ended" satisfies EmbedEvent, ...state });
  flush();
}
