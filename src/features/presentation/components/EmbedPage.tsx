import type { PresentationPageData } from "../page-data";
import { Player } from "./player/Player";
import { playerPropsOf } from "./player/player-props";
import "../../../ui/styles/base.css";
import "./fullscreen-page.css";

/**
 * The embeddable player page (spec §2 /p/embed/{id}/): just the player, filling the frame. Issue
 * 34: with the embed options of its address (embed-options.ts), light or dark around the slides.
 */
export function EmbedPage({ data }: { data: PresentationPageData }) {
  return (
    <main className={`fullscreen-page${data.embedOptions?.chrome === "light" ? " fullscreen-page--light" : ""}`}>
      <div className="fullscreen-page__player">
        <Player {...playerPropsOf(data, { titleIsHeading: true, viewOnPodium: true })} />
      </div>
    </main>
  );
}
