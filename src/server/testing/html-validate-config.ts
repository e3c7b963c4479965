import type { ConfigData } from "html-validate";

/**
 * Issue 12: the one html-validate configuration every page kind is checked with
 * (html-validity.test.ts): the recommended preset, and below each rule changed, with why. Only
 * rules about how React's server renderer spells valid HTML are relaxed; anything that is an error
 * in HTML or for assistive technology stays on, and the markup is fixed instead.
 */
export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ["html-validate:recommended"],
  rules: {
    // React writes void elements self-closed (`<img/>`); HTML allows both spellings, the rule
    // only wants one style.
    "void-style": "off",
    // React writes a true boolean attribute as `checked=""`; an empty value is one of the valid
    // spellings (HTML "Boolean attributes"), the rule only wants the shortest.
    "attribute-boolean-style": "off",
    // The same for `hidden=""` and other attributes React writes with an empty value.
    "attribute-empty-style": "off",
    // React writes some attribute names as its props are named (`maxLength`, `autoComplete`,
    // `dateTime`, `tabIndex`); HTML attribute names are ASCII case-insensitive.
    "attr-case": "off",
    // Style attributes carry values that come from data and can't be classes (a card's line
    // clamp, a slide's position and scale on the canvas); the CSP allows them
    // (server/app.ts: style-src 'self' 'unsafe-inline'), and page data never reaches CSS text.
    "no-inline-style": "off",
    // React's useId ids begin with "_" (`_R_da_`); HTML asks only that an id be non-empty,
    // without whitespace and unique (no-dup-id stays on). Relaxed mode still checks the first two.
    "valid-id": ["error", { relaxed: true }],
    // A list (`ul`, role list) may be named by its author (ARIA 1.2, "list": name from author);
    // the recommended preset only prefers fewer named elements. html-validate's own standard
    // preset allows it the same way. Landmarks must still have unique names (unique-landmark).
    "aria-label-misuse": ["error", { allowAnyNamable: true }],
  },
};
