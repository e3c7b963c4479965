import { createContext, type ReactNode, useContext } from "react";
import type { Locale, MessageId } from "./locales";

/**
 * Issue 30 item 1: the part of react-intl's API that Podium uses, without its runtime (about
 * 15 KiB gzip on every page): an intl object made by createPodiumIntl (locales.ts, which formats
 * the catalogues' ICU messages with icu.ts), the context that carries it, and the components.
 * The server renders with it too, so the markup the browser hydrates is the same. Each behaves as
 * react-intl's did (compiled-messages.test.ts compares them).
 */

export type PrimitiveType = string | number | bigint | boolean | null | undefined | Date;
/** A rich-text tag's function (`<link>…</link>`): its parts in, what to render out. */
export type RichTextFunction = (parts: ReactNode[]) => ReactNode;
export type MessageValues = Record<string, PrimitiveType | ReactNode | RichTextFunction>;

export interface MessageDescriptor {
  id: MessageId;
  description?: string;
  defaultMessage?: string;
}

export interface IntlShape {
  locale: Locale;
  /** A message's text; with React nodes or tag functions among the values, what to render. */
  formatMessage(descriptor: MessageDescriptor, values?: Record<string, PrimitiveType>): string;
  formatMessage(descriptor: MessageDescriptor, values?: MessageValues): ReactNode;
  $t: IntlShape["formatMessage"];
  formatNumber(value: number | bigint, options?: Intl.NumberFormatOptions): string;
  formatDate(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
  formatTime(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
}

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
