import type { Theme } from "../../../document/schema";
import { SLIDE_PALETTES } from "../../../document/slide-layout";
import { FormattedMessage } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { PostForm, SubmitButton } from "../../../ui/Form";
import "./theme-picker.css";

const THEMES: { theme: Theme; label: MessageId }[] = [
  { theme: "light", label: "dashboard.theme.light" },
  { theme: "dark", label: "dashboard.theme.dark" },
  { theme: "contrast", label: "dashboard.theme.contrast" },
];

/**
 * The slide theme of one presentation (issue 10): a radio group with a small swatch of each
 * theme (a slide in its colours), posted as a plain form (works without JavaScript).
 */
export function ThemePicker({ action, current }: { action: string; current: Theme }) {
  return (
    <section className="panel" aria-labelledby="theme-title">
      <h2 id="theme-title">
        <FormattedMessage id="dashboard.theme.title" />
      </h2>
      <PostForm action={action} className="theme-picker">
        <fieldset className="theme-picker__choices" aria-describedby="theme-lead">
          <legend className="visually-hidden">
            <FormattedMessage id="dashboard.theme.title" />
          </legend>
          <p id="theme-lead" className="dashboard__lead theme-picker__lead">
            <FormattedMessage id="dashboard.theme.lead" />
          </p>
          {THEMES.map(({ theme, label }) => (
            <label key={theme} className="theme-picker__choice">
              <input type="radio" name="theme" value={theme} defaultChecked={theme === current} />
              <Swatch theme={theme} />
              <span className="theme-picker__name">
                <FormattedMessage id={label} />
              </span>
            </label>
          ))}
        </fieldset>
        <SubmitButton message="dashboard.theme.save" />
      </PostForm>
    </section>
  );
}

/** A tiny slide in the theme's colours: a title bar, two lines of text and a link. */
function Swatch({ theme }: { theme: Theme }) {
  const palette = SLIDE_PALETTES[theme];
  return (
    <svg
      className="theme-picker__swatch"
      width="64"
      height="36"
      viewBox="0 0 64 36"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="0.5" y="0.5" width="63" height="35" rx="4" fill={palette["slide-bg"]} stroke="#5d6473" />
      <rect x="7" y="8" width="32" height="5" rx="1" fill={palette["slide-title"]} />
      <rect x="7" y="17" width="44" height="3" rx="1" fill={palette["slide-fg"]} />
      <rect x="7" y="23" width="22" height="3" rx="1" fill={palette["slide-link"]} />
    </svg>
  );
}
