import { FormattedMessage } from "../i18n/intl";
import type { MessageId } from "../i18n/locales";

/** A link that looks like a button, its words one message (Go home, Edit, Delete…). */
export function LinkButton({
  href,
  message,
  variant,
}: {
  href: string;
  message: MessageId;
  variant?: "primary" | "danger";
}) {
  return (
    <a className={variant ? `button button--${variant}` : "button"} href={href}>
      <FormattedMessage id={message} />
    </a>
  );
}
