import type { PlayerDeck } from "../presentation/page-data";
import type { LiveReaction, LiveState } from "./rules";

/** Issue 35 item 2: the follow page (`/live/{code}`). */
export interface FollowPageData extends PlayerDeck {
  code: string;
  spacedCode: string;
  /** The deck through the code: `/live/{code}/document.json` (any privacy, while the session runs). */
  documentUrl: string;
  /** The session's state as the page was rendered (the event stream's first event replaces it). */
  state: LiveState;
  reactions: LiveReaction[];
}

/**
 * Issue 35 item 2: `/live/`, where someone in the room types the code the presenter shows (the
 * form asks `/live/?code=…`, which goes on to `/live/{code}` when it is a code's shape).
 */
export interface LiveJoinPageData {
  /** What was typed, to show again beside the error; empty on a first visit. */
  typed: string;
  /** True when what was typed can't be a code. */
  invalid: boolean;
}

/** Issue 35 item 2: the page an ended (or unknown) code shows: no deck for a private one. */
export interface LiveEndedPageData {
  /** The deck's own page, only when anyone may see it (public, reusable, unlisted by its link). */
  deckPath: string | null;
  title: string | null;
}

/** Issue 35 item 1: the presenter view's live session. */
export interface PresenterLiveData {
  code: string;
  spacedCode: string;
  joinUrl: string;
  /** The join address as a QR code (SVG markup drawn on the server by `qrcode`). */
  qrSvg: string;
  state: LiveState;
}
