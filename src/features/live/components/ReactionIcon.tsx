import type { ReactNode } from "react";
import type { LiveReaction } from "../rules";

/** The yellow of the faces and hands, and the darker brown of their outlines and features. */
const SKIN = "#ffcc4d";
const LINE = "#8a5a00";
const FEATURE = "#5c3b00";

/** A round face for the laugh and the wow. */
function Face() {
  return <circle cx="12" cy="12" r="10" fill={SKIN} stroke={LINE} strokeWidth="1" />;
}

/**
 * Issue 35 item 3: the reactions are drawn by Podium itself, 24-unit pictures with an outline, not
 * emoji characters: a device without an emoji font (a fresh Linux, a kiosk) showed empty boxes.
 * They look the same on every screen, and at 3:1 or more against either background.
 */
// Functions, not elements made when the module loads: no JSX runs before React's runtime is ready
// (a server bundle whose chunks load in another order failed at start with "jsxDEV is not a function").
const PICTURES: Record<LiveReaction, () => ReactNode> = {
  applause: () => (
    <>
      <g stroke={LINE} strokeWidth="1" strokeLinejoin="round" strokeLinecap="round" fill={SKIN}>
        <g transform="translate(6.4 7.2) rotate(14) scale(0.84)">
          <path d="M0 3a3 3 0 0 1 6 0v8a4.5 4.5 0 0 1-9 0V8a1.5 1.5 0 0 1 3 0z" />
          <path d="M2 1v3.6M4 1v3.6" fill="none" strokeWidth="0.8" />
        </g>
        <g transform="translate(17.6 7.2) rotate(-14) scale(0.84)">
          <path d="M0 3a3 3 0 0 0-6 0v8a4.5 4.5 0 0 0 9 0V8a1.5 1.5 0 0 0-3 0z" />
          <path d="M-2 1v3.6M-4 1v3.6" fill="none" strokeWidth="0.8" />
        </g>
      </g>
      <g stroke={FEATURE} strokeWidth="1.4" strokeLinecap="round" fill="none">
        <path d="M12 1.6v2.6M8.4 2.4l.9 1.8M15.6 2.4l-.9 1.8" />
      </g>
    </>
  ),
  heart: () => (
    <path
      d="M12 21.2l-1.4-1.3C5.4 15.2 2 12.1 2 8.4 2 5.3 4.4 3 7.4 3c1.7 0 3.4.8 4.6 2.1C13.1 3.8 14.8 3 16.6 3 19.6 3 22 5.3 22 8.4c0 3.7-3.4 6.8-8.6 11.5z"
      fill="#e0245e"
      stroke="#9b1240"
      strokeWidth="1"
      strokeLinejoin="round"
    />
  ),
  laugh: () => (
    <>
      <Face />
      <g stroke={FEATURE} strokeWidth="1.5" strokeLinecap="round" fill="none">
        <path d="M6.8 10q1.6-2.2 3.2 0M14 10q1.6-2.2 3.2 0" />
      </g>
      <path d="M6.2 13h11.6a5.8 5.8 0 0 1-11.6 0z" fill={FEATURE} />
      <path d="M6.5 13h11a6 6 0 0 1-.3 1.5H6.8a6 6 0 0 1-.3-1.5z" fill="#fff" />
      <path d="M9 17.8a4.5 4.5 0 0 1 6 0 5.6 5.6 0 0 1-6 0z" fill="#e0245e" />
    </>
  ),
  wow: () => (
    <>
      <Face />
      <g fill={FEATURE}>
        <ellipse cx="8.6" cy="9.6" rx="1.3" ry="1.8" />
        <ellipse cx="15.4" cy="9.6" rx="1.3" ry="1.8" />
        <ellipse cx="12" cy="16" rx="2.3" ry="3" />
      </g>
    </>
  ),
  thumbsUp: () => (
    <>
      <rect x="2" y="10" width="4.5" height="11" rx="1" fill="#3b88c3" stroke="#1d5b8a" strokeWidth="1" />
      <path
        d="M8 10.5l4.6-7.3c.6-.9 2-.6 2.2.5.1.6 0 1.3-.2 1.9L14 9h5.4c1.4 0 2.5 1.3 2.2 2.7l-1.5 7.3c-.2 1.2-1.3 2-2.5 2H9.5C8.7 21 8 20.3 8 19.5z"
        fill={SKIN}
        stroke={LINE}
        strokeWidth="1"
        strokeLinejoin="round"
      />
    </>
  ),
};

/** A reaction's picture; hidden from assistive technology (the button or the count names it). */
export function ReactionIcon({ reaction, size = 28 }: { reaction: LiveReaction; size?: number }) {
  return (
    <svg className="reaction-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {PICTURES[reaction]()}
    </svg>
  );
}
