import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { logClientProblem } from "../features/events/client";
import type { CompiledMessages } from "../i18n/icu";
import { createCompiledIntl, hasPluralRules, type Locale } from "../i18n/locales";
import { onPageOrigin } from "../lib/http-client";
import { PodiumApp } from "../ui/PodiumApp";
import type { SessionInfo } from "../ui/session";
import { BOOT_DATA_ID, ROOT_ID } from "./entries";

export interface BootData<Data> {
  locale: Locale;
  /**
   * Issue 11: the URL of the language's message catalogue, a content-hashed file the browser
   * caches across pages (the page preloads it). Null without a client build (then no script runs).
   */
  messagesUrl: string | null;
  session: SessionInfo;
  data: Data;
}

/**
 * Hydrates the server-rendered page with the same data and messages it was rendered from. The
 * messages come first (the page preloaded them beside this script): hydrating without them would
 * not match the server's text. If they can't be had, the page stays as the server rendered it
 * (links and forms work) and the client log hears why.
 */
export function hydratePage<Data>(render: (data: Data) => ReactNode): void {
  const bootElement = document.getElementById(BOOT_DATA_ID);
  const root = document.getElementById(ROOT_ID);
  if (!bootElement?.textContent || !root) throw new Error("Podium: the page has no boot data to hydrate from.");
  const boot = JSON.parse(bootElement.textContent) as BootData<Data>;
  reportUncaughtProblems();
  // Issue 30: the formatting without plural rules (spec §8) loads only where the browser lacks them.
  const fallback = hasPluralRules(boot.locale)
    ? Promise.resolve(undefined)
    : import("../i18n/plural-fallback").then(
        (module) => module.formatWithoutPluralRules,
        // Without it, counts show their template: the page still hydrates.
        () => undefined,
      );
  Promise.all([loadMessages(boot.messagesUrl), fallback]).then(
    ([messages, withoutPluralRules]) => hydrateWith(root, boot, messages, render, withoutPluralRules),
    (error: unknown) =>
      void logClientProblem({
        msg: `The page stays as rendered: its messages did not load (${error instanceof Error ? error.message : String(error)})`,
        levelname: "ERROR",
        object: "page",
        action: "hydrate",
        trigger: "messages",
        source: boot.messagesUrl ?? "",
      }),
  );
}

/** The catalogue the page links: the same request as its preload (CORS mode, same-origin credentials). */
async function loadMessages(url: string | null): Promise<CompiledMessages> {
  if (!url) throw new Error("no message catalogue linked");
  const response = await fetch(onPageOrigin(url));
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const messages: unknown = await response.json();
  if (typeof messages !== "object" || messages === null || Array.isArray(messages))
    throw new Error(`${url} is not a message catalogue`);
  return messages as CompiledMessages;
}

function hydrateWith<Data>(
  root: HTMLElement,
  boot: BootData<Data>,
  messages: CompiledMessages,
  render: (data: Data) => ReactNode,
  withoutPluralRules: Parameters<typeof createCompiledIntl>[4],
): void {
  // Spec §8: missing plural rules are a console error, and reach the operators through the client log.
  const intl = createCompiledIntl(
    boot.locale,
    messages,
    undefined,
    (msg) => {
      void logClientProblem({ msg, levelname: "ERROR", object: "intl", action: "plural_rules", trigger: "hydrate" });
    },
    withoutPluralRules,
  );
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
