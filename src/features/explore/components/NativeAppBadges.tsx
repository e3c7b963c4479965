import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { NATIVE_APP_OPEN_TIMEOUT_MS, type NativeApp } from "../header-data";

/**
 * Spec §2 native-app promo (R2.26): the iPhone and the Android store badges. A click tries the
 * app's own protocol URL and falls back to its store URL after the open timeout (300 ms by default).
 */
export function NativeAppBadges({ apps }: { apps: NativeApp[] }) {
  const intl = useIntl();
  if (apps.length === 0) return null;
  const open = (app: NativeApp) => {
    const fallback = window.setTimeout(
      () => window.location.assign(app.url),
      app.openAppTimeout || NATIVE_APP_OPEN_TIMEOUT_MS,
    );
    // Leaving the page (the app opened) cancels the store fallback.
    window.addEventListener("pagehide", () => window.clearTimeout(fallback), { once: true });
    window.location.assign(app.ownProtocolUrl);
  };
  // The iPhone badge first, then Android, whatever order they were configured in.
  const ordered = [...apps].sort((a, b) => (a.type === b.type ? 0 : a.type === "ios" ? -1 : 1));
  return (
    <fieldset className="native-app">
      <legend className="visually-hidden">{intl.formatMessage({ id: "header.appPromo" })}</legend>
      {ordered.map((app) => (
        <button
          key={app.type}
          type="button"
          className={`native-app__badge native-app__badge--${app.type}`}
          onClick={() => open(app)}
          data-store={app.type}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            {app.type === "ios" ? (
              <path
                fill="currentColor"
                d="M16.4 12.6c0-2.5 2-3.7 2.1-3.8-1.2-1.7-3-1.9-3.6-2-1.5-.2-3 .9-3.8.9s-2-.9-3.3-.9C6.1 6.9 4.5 7.9 3.7 9.4c-1.8 3.1-.5 7.6 1.3 10.1.8 1.2 1.8 2.6 3.1 2.5 1.2-.1 1.7-.8 3.2-.8s1.9.8 3.2.8c1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8-.1 0-2.4-.9-2.4-4.2zM14 5.3c.7-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.5-.6.7-1.2 1.8-1 2.9 1 .1 2.1-.6 2.8-1.4z"
              />
            ) : (
              <path
                fill="currentColor"
                d="M4 2.5v19l10-9.5zm11.3 8.2 2.9-2.8L5.6 1.3zm0 2.6L5.6 22.7l12.6-6.6zm4.2-3.8-2.7 2.5 2.7 2.5 2.5-1.3c.8-.5.8-1.9 0-2.4z"
              />
            )}
          </svg>
          <FormattedMessage id={app.type === "ios" ? "header.appStore" : "header.playStore"} />
        </button>
      ))}
    </fieldset>
  );
}
