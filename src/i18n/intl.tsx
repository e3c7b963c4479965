import { createContext, type ReactNode, useContext } from "react";
import type { IntlShape, MessageDescriptor, MessageValues } from "./locales";

/**
 * Issue 30 item 1: the part of react-intl's API that Podium uses, without its runtime (about
 * 15 KiB gzip on every page): an intl object made by createPodiumIntl (locales.ts, which formats
 * the catalogues' ICU messages with icu.ts), the context that carries it, and the components.
 * The server renders with it too, so the markup the browser hydrates is the same. Each behaves as
 * react-intl's did (compiled-messages.test.ts compares them).
 */

// The intl object's types live beside createPodiumIntl (locales.ts), which makes it: so this file
// and locales.ts don't import each other (issue 31, item 4). Re-exported for the components.
export type { IntlShape, MessageDescriptor, MessageValues, PrimitiveType, RichTextFunction } from "./locales";

const IntlContext = createContext<IntlShape | null>(null);

/** Gives the page's intl object to everything inside (react-intl's RawIntlProvider). */
export function RawIntlProvider({ value, children }: { value: IntlShape; children?: ReactNode }) {
  return <IntlContext.Provider value={value}>{children}</IntlContext.Provider>;
}

export function useIntl(): IntlShape {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error("[Podium intl] useIntl needs a RawIntlProvider around it.");
  return intl;
}

export function FormattedMessage(props: MessageDescriptor & { values?: MessageValues }) {
  const { id, description, defaultMessage, values } = props;
  return <>{useIntl().formatMessage({ id, description, defaultMessage }, values)}</>;
}

export function FormattedNumber({ value, ...options }: Intl.NumberFormatOptions & { value: number | bigint }) {
  return <>{useIntl().formatNumber(value, options)}</>;
}

export function FormattedDate({ value, ...options }: Intl.DateTimeFormatOptions & { value: Date | number | string }) {
  return <>{useIntl().formatDate(value, options)}</>;
}

export function FormattedTime({ value, ...options }: Intl.DateTimeFormatOptions & { value: Date | number | string }) {
  return <>{useIntl().formatTime(value, options)}</>;
}
