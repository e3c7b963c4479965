import { FormattedMessage, useIntl } from "../i18n/intl";
import { FormNotice, PostForm } from "./Form";

/**
 * Issue 33 item 3: what a closed view link shows, in words and nothing of the deck (no title,
 * no thumbnail, no oid): turned off, expired, or a passcode form (in the product's style, like
 * the login form; throttled by the login rules on the server).
 */
export interface LinkGateData {
  state: "disabled" | "expired" | "passcode";
  /** Where the passcode form posts (`/view/{linkId}/passcode`). */
  action: string;
  /** What went wrong with the last passcode given. */
  problem: "wrong" | "tooMany" | "busy" | null;
  /** With "tooMany": how long to wait. */
  seconds?: number;
}

export function LinkGate({ gate }: { gate: LinkGateData }) {
  const intl = useIntl();
  if (gate.state !== "passcode") {
    return (
      <div className="error-page link-gate">
        <h1>
          <FormattedMessage id={gate.state === "expired" ? "linkGate.expired.title" : "linkGate.disabled.title"} />
        </h1>
        <p>
          <FormattedMessage id={gate.state === "expired" ? "linkGate.expired.body" : "linkGate.disabled.body"} />
        </p>
        <a className="button button--primary" href="/">
          <FormattedMessage id="error.goHome" />
        </a>
      </div>
    );
  }
  const error =
    gate.problem === "wrong"
      ? intl.formatMessage({ id: "linkGate.passcode.wrong" })
      : gate.problem === "tooMany"
        ? intl.formatMessage({ id: "linkGate.passcode.tooMany" }, { seconds: gate.seconds ?? 1 })
        : gate.problem === "busy"
          ? intl.formatMessage({ id: "linkGate.passcode.busy" })
          : null;
  return (
    <div className="error-page link-gate">
      <h1>
        <FormattedMessage id="linkGate.passcode.title" />
      </h1>
      <p>
        <FormattedMessage id="linkGate.passcode.body" />
      </p>
      <PostForm action={gate.action} className="form link-gate__form">
        {error ? <FormNotice kind="error">{error}</FormNotice> : null}
        <div className={`field${gate.problem === "wrong" ? " field--error" : ""}`}>
          <label htmlFor="link-passcode">
            <FormattedMessage id="linkGate.passcode.label" />
          </label>
          <input
            id="link-passcode"
            name="passcode"
            type="password"
            required
            maxLength={200}
            autoComplete="off"
            // biome-ignore lint/a11y/noAutofocus: the page's one task; the heading above says what it is for
            autoFocus
            aria-invalid={gate.problem === "wrong" ? true : undefined}
          />
        </div>
        <button type="submit" className="button button--primary">
          <FormattedMessage id="linkGate.passcode.submit" />
        </button>
      </PostForm>
    </div>
  );
}
