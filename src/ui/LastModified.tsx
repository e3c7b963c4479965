import { FormattedDate, FormattedMessage } from "../i18n/intl";

/** "Last modified" and the date (ISO), written long in the reader's language, in UTC, in a <time> element. */
export function LastModified({ date }: { date: string }) {
  return (
    <FormattedMessage
      id="presentation.lastModified"
      values={{
        date: (
          <time dateTime={date}>
            <FormattedDate value={date} dateStyle="long" timeZone="UTC" />
          </time>
        ),
      }}
    />
  );
}
