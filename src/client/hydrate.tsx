import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
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
