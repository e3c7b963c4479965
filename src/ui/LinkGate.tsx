import { useIntl } from "../i18n/intl";
import { FormNotice, MessageLabel, PostForm, SubmitButton } from "./Form";
import { LinkButton } from "./LinkButton";
import { PageIntro } from "./PageIntro";

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
      <PageIntro
        className="error-page link-gate"
        title={gate.state === "expired" ? "linkGate.expired.title" : "linkGate.disabled.title"}
        lead={gate.state === "expired" ? "linkGate.expired.body" : "linkGate.disabled.body"}
      >
        <LinkButton href="/" message="error.goHome" variant="primary" />
      </PageIntro>
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
    <PageIntro className="error-page link-gate" title="linkGate.passcode.title" lead="linkGate.passcode.body">
      <PostForm action={gate.action} className="form link-gate__form">
        {error ? <FormNotice kind="error">{error}</FormNotice> : null}
        <div className={`field${gate.problem === "wrong" ? " field--error" : ""}`}>
          <MessageLabel htmlFor="link-passcode" message="linkGate.passcode.label" />
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
        <SubmitButton message="linkGate.passcode.submit" />
      </PostForm>
    </PageIntro>
  );
}
