/** Spec constants shared across features, each with the section it comes from. */

/** §9: breakpoints in px; mobile is below 768. */
export const BREAKPOINTS = { extraSmall: 434, small: 768, medium: 992, large: 1200 } as const;

/**
 * §9 "mobile means narrower than 768", as a media query. Issue 12: the page follows the
 * viewport (CSS at the same width, `@media (max-width: 767px)`); the user agent is only the
 * server's first guess (page data `isMobile`, the page cache's device class).
 */
export const MOBILE_MEDIA_QUERY = `(max-width: ${BREAKPOINTS.small - 1}px)`;

/** §9: key codes the viewer listens for (matched together with KeyboardEvent.key). */
export const KEY_CODES = { escape: 27, enter: 13, space: 32, comma: 188 } as const;
