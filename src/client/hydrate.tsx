import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { logClientProblem } from "../features/events/client";
import { createPodiumIntl, type Locale, type Messages } from "../i18n/locales";
import { PodiumApp } from "../ui/PodiumApp";
import type { SessionInfo } from "../ui/session";
import { BOOT_DATA_ID, ROOT_ID } from "./entries";

export interface BootData<Data> {
  locale: Locale;
  messages: Messages;
  session: SessionInfo;
  data: Data;
}

/** Hydrates the server-rendered page with the same data and messages it was rendered from. */
export function hydratePage<Data>(render: (data: Data) => ReactNode): void {
  const bootElement = document.getElementById(BOOT_DATA_ID);
  const root = document.getElementById(ROOT_ID);
  if (!bootElement?.textContent || !root) throw new Error("Podium: the page has no boot data to hydrate from.");
  const boot = JSON.parse(bootElement.textContent) as BootData<Data>;
  reportUncaughtProblems();
  const intl = createPodiumIntl(boot.locale, boot.messages);
  hydrateRoot(
    root,
    <PodiumApp intl={intl} session={boot.session}>
      {render(boot.data)}
    </PodiumApp>,
    {
      onRecoverableError(error) {
        // A hydration mismatch is a bug: make it loud (the e2e tests fail on console errors).
        console.error("Podium hydration error:", error);
      },
    },
  );
}

/** Scripts that fail in visitors' browsers reach Podium's operators through the client log (spec §7). */
function reportUncaughtProblems(): void {
  window.addEventListener("error", (event) => {
    void logClientProblem({
      msg: event.message || "Script error",
      levelname: "ERROR",
      object: "window",
      action: "error",
      trigger: "uncaught",
      source: event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : "",
    });
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason as { message?: unknown } | undefined;
    void logClientProblem({
      msg: typeof reason?.message === "string" ? reason.message : String(event.reason),
      levelname: "ERROR",
      object: "window",
      action: "unhandledrejection",
      trigger: "uncaught",
    });
  });
}
