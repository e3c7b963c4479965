/** Spec constants shared across features, each with the section it comes from. */

/** §9: breakpoints in px; mobile is below 768. */
export const BREAKPOINTS = { extraSmall: 434, small: 768, medium: 992, large: 1200 } as const;

/** §9: key codes the viewer listens for (matched together with KeyboardEvent.key). */
export const KEY_CODES = { escape: 27, enter: 13, space: 32, comma: 188 } as const;
