import type { ReactNode } from "react";
import { FormattedMessage, type MessageValues } from "../i18n/intl";
import type { MessageId } from "../i18n/locales";

/**
 * A page's heading and the sentence under it, then what follows in the same box: a catalogue
 * page's hero, the dashboard's head, an error page or a closed view link (issue 31, item 2: the
 * pages wrote this pair out each time). `before`: what stands above the heading (an error's status).
 */
export function PageIntro({
  as: Box = "div",
  className,
  title,
  lead,
  leadValues,
  before,
  children,
}: {
  as?: "div" | "section";
  className: string;
  title: MessageId;
  lead: MessageId;
  leadValues?: MessageValues;
  before?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Box className={className}>
      {before}
      <h1>
        <FormattedMessage id={title} />
      </h1>
      <p>
        <FormattedMessage id={lead} values={leadValues} />
      </p>
      {children}
    </Box>
  );
}
