import type { MessageId } from "../../../i18n/locales";
import { readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from "../../../lib/http-client";
import { PDF_MAX_BYTES, type PdfProblem } from "../errors";

/**
 * The browser's side of the dashboard's import (issue 10, items 4 and 6): Markdown and JSON go
 * to the dashboard's own form endpoint (it redirects; the XHR follows, and the page goes where
 * it landed), PDFs to the PDF pipeline, whose job is then asked after until the deck is ready.
 */

/** Markdown and JSON files: the dashboard's import limit (server/app.ts UPLOAD_LIMIT_BYTES). */
export const TEXT_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** How often a running conversion is asked after: often at first, then once a second. */
const pollDelay = (asked: number) => Math.min(1_000, 300 + asked * 50);

export type ImportPhase =
  | { kind: "idle" }
  | { kind: "uploading"; name: string; loaded: number; total: number; pdf: boolean }
  /** `ahead`: waiting for its turn behind this many PDFs (issue 27 item 2); null once it converts. */
  | { kind: "converting"; name: string; total: number; pagesDone: number; pageCount: number; ahead: number | null }
  | { kind: "opening"; name: string; total: number; pdf: boolean; pageCount: number }
  | { kind: "failed"; messageId: MessageId | null; text: string | null; values: Record<string, string | number> };

const PROBLEM_MESSAGES: Record<PdfProblem | "expired" | "network", MessageId> = {
  signedOut: "pdfImport.error.signedOut",
  noFile: "pdfImport.error.noFile",
  notPdf: "pdfImport.error.notPdf",
  empty: "pdfImport.error.empty",
  tooLarge: "pdfImport.error.tooLarge",
  tooManyPages: "pdfImport.error.tooManyPages",
  encrypted: "pdfImport.error.encrypted",
  corrupt: "pdfImport.error.corrupt",
  tooSlow: "pdfImport.error.tooSlow",
  tooLong: "pdfImport.error.tooLong",
  tooComplex: "pdfImport.error.tooComplex",
  busy: "pdfImport.error.busy",
  rate: "pdfImport.error.rate",
  quota: "pdfImport.error.quota",
  privacy: "pdfImport.error.privacy",
  failed: "pdfImport.error.failed",
  expired: "pdfImport.error.expired",
  network: "pdfImport.error.network",
};

export function isPdfFile(file: { name: string; type: string }): boolean {
  return file.type === "application/pdf" || /\.pdf$/i.test(file.name);
}

function failure(problem: keyof typeof PROBLEM_MESSAGES): ImportPhase {
  return { kind: "failed", messageId: PROBLEM_MESSAGES[problem], text: null, values: {} };
}

/** The failure a PDF answer names (its problem code), or by its status when it names none. */
export function pdfFailure(status: number, answer: unknown): ImportPhase {
  const problem = (answer as { problem?: unknown } | null)?.problem;
  if (typeof problem === "string" && problem in PROBLEM_MESSAGES) return failure(problem as PdfProblem);
  if (status === 413) return failure("tooLarge");
  if (status === 403) return failure("expired");
  if (status === 401) return failure("signedOut");
  if (status === 503 || status === 429) return failure("busy");
  return failure("failed");
}

function token(csrfToken: string | null): string | null {
  return readCookie(typeof document === "undefined" ? "" : document.cookie, XSRF_COOKIE_NAME) ?? csrfToken;
}

/** The error the dashboard's page says (its first error notice), or null. */
function noticeIn(html: string): string | null {
  const page = new DOMParser().parseFromString(html, "text/html");
  return page.querySelector(".notice--error")?.textContent?.trim() || null;
}

/**
 * Sends the form's file where it belongs and reports each phase; resolves with the address the
 * page should open (the imported deck) or null when the import failed (the last phase says why).
 */
export function sendImport(
  form: HTMLFormElement,
  file: File,
  csrfToken: string | null,
  report: (phase: ImportPhase) => void,
): Promise<string | null> {
  const pdf = isPdfFile(file);
  const name = file.name;
  if (pdf && file.size > PDF_MAX_BYTES) {
    report(failure("tooLarge"));
    return Promise.resolve(null);
  }
  if (!pdf && file.size > TEXT_IMPORT_MAX_BYTES) {
    report({ kind: "failed", messageId: "dashboard.error.tooLarge", text: null, values: {} });
    return Promise.resolve(null);
  }
  const body = new FormData(form);
  body.set("file", file, file.name);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", pdf ? "/api/imports/pdf" : form.action);
    const csrf = token(csrfToken);
    if (csrf) xhr.setRequestHeader(XSRF_HEADER_NAME, csrf);
    if (pdf) xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "text";
    report({ kind: "uploading", name, loaded: 0, total: file.size, pdf });
    xhr.upload.onprogress = (event) => {
      // The body is the file and a little form framing: progress is told in the file's own bytes.
      const share = event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0;
      report({ kind: "uploading", name, loaded: Math.round(Math.min(1, share) * file.size), total: file.size, pdf });
    };
    xhr.onerror = () => {
      report(failure("network"));
      resolve(null);
    };
    xhr.onload = () => {
      if (!pdf) {
        // The dashboard redirected (303) to the new deck's page, which the XHR followed.
        if (xhr.status >= 200 && xhr.status < 300 && xhr.responseURL) {
          report({ kind: "opening", name, total: file.size, pdf, pageCount: 0 });
          resolve(xhr.responseURL);
          return;
        }
        const text = noticeIn(xhr.responseText);
        report(
          text
            ? { kind: "failed", messageId: null, text, values: {} }
            : xhr.status === 403
              ? failure("expired")
              : failure("failed"),
        );
        resolve(null);
        return;
      }
      let answer: { id?: string; pageCount?: number; pagesDone?: number; waiting?: boolean; ahead?: number } | null =
        null;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        answer = null;
      }
      if (xhr.status !== 202 || typeof answer?.id !== "string") {
        report(pdfFailure(xhr.status, answer));
        resolve(null);
        return;
      }
      const id = answer.id;
      report({
        kind: "converting",
        name,
        total: file.size,
        pagesDone: answer.pagesDone ?? 0,
        pageCount: answer.pageCount ?? 0,
        ahead: waitingAhead(answer),
      });
      void follow(id, name, file.size, report).then(resolve);
    };
    xhr.send(body);
  });
}

/** How many PDFs go before a waiting one (the status says `waiting`), or null once it converts. */
function waitingAhead(status: { waiting?: boolean; ahead?: number }): number | null {
  return status.waiting === true && typeof status.ahead === "number" ? status.ahead : null;
}

/** Asks after a conversion until it is done (the deck's address) or failed (null). */
async function follow(
  id: string,
  name: string,
  total: number,
  report: (phase: ImportPhase) => void,
): Promise<string | null> {
  let networkFailures = 0;
  for (let asked = 0; ; asked += 1) {
    await new Promise((resolve) => setTimeout(resolve, pollDelay(asked)));
    let response: Response;
    try {
      response = await fetch(`/api/imports/${encodeURIComponent(id)}`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
        cache: "no-store",
      });
    } catch {
      // A moment offline is not a failed import: ask again a few times first.
      networkFailures += 1;
      if (networkFailures >= 5) {
        report(failure("network"));
        return null;
      }
      continue;
    }
    // Asked too often (the per-address request limit): the conversion goes on; ask again later.
    if (response.status === 429) continue;
    const status = (await response.json().catch(() => null)) as {
      state?: string;
      pagesDone?: number;
      pageCount?: number;
      url?: string;
      waiting?: boolean;
      ahead?: number;
    } | null;
    if (status?.state === "done" && typeof status.url === "string") {
      report({ kind: "opening", name, total, pdf: true, pageCount: status.pageCount ?? 0 });
      return status.url;
    }
    if (!response.ok || status?.state !== "converting") {
      report(pdfFailure(response.status, status));
      return null;
    }
    report({
      kind: "converting",
      name,
      total,
      pagesDone: status.pagesDone ?? 0,
      pageCount: status.pageCount ?? 0,
      ahead: waitingAhead(status),
    });
  }
}
