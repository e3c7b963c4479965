import type { ComponentProps } from "react";
import { LazySidebar } from "../../sidebar/components/Sidebar";
import { MoreDecks } from "./MoreDecks";

/**
 * Issue 12: beside the deck (below it on narrow screens), the author's and related decks first,
 * then the promotional cards (compact rows). Issue 11: both fetch their rows as they near the
 * screen; issue 30: their code too (PresentationPage loads this part when near).
 */
export function SideLists({ oid, ownerName, expected, onCardClick }: ComponentProps<typeof MoreDecks>) {
  return (
    <>
      <MoreDecks oid={oid} ownerName={ownerName} expected={expected} onCardClick={onCardClick} />
      <LazySidebar oid={oid} onCardClick={onCardClick} />
    </>
  );
}
