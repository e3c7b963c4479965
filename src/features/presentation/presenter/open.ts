/** The presenter view's window: one per browser, reused (and brought forward) when opened again. */
export const PRESENTER_WINDOW_NAME = "podium-presenter";
export const PRESENTER_WINDOW_FEATURES = "popup,width=1100,height=700";

/** Opens (or brings forward) the presenter view at the audience's step (`#step=N`, 1-based). */
export function openPresenterView(url: string, step: number): void {
  const opened = window.open(`${url}#step=${step + 1}`, PRESENTER_WINDOW_NAME, PRESENTER_WINDOW_FEATURES);
  opened?.focus();
}
