import { FormattedMessage } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";

/** A data table's head: one column header a message, in order (the dashboard's tables). */
export function ColumnHeads({ ids }: { ids: readonly MessageId[] }) {
  return (
    <thead>
      <tr>
        {ids.map((id) => (
          <th key={id} scope="col">
            <FormattedMessage id={id} />
          </th>
        ))}
      </tr>
    </thead>
  );
}
