import type { ComponentProps, ReactNode } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { Icon } from "../../../ui/Icon";

/**
 * Issue 12: the toolbar's actions carry an icon and a label. From 768 px both show; on a phone
 * (narrower than 768, spec §9) the label is visually hidden (it stays the accessible name), so
 * the action row fits one line at 320 px. Material Design icon paths (Apache 2.0).
 */
export const TOOLBAR_ICONS = {
  embed: "M9.4 16.6 4.8 12l4.6-4.6L8 6l-6 6 6 6zm5.2 0 4.6-4.6-4.6-4.6L16 6l6 6-6 6z",
  share:
    "M18 16.08c-.76 0-1.44.3-1.96.77L8.91 12.7c.05-.23.09-.46.09-.7s-.04-.47-.09-.7l7.05-4.11A2.99 2.99 0 0 0 21 5a3 3 0 1 0-5.91.7L8.04 9.81A2.99 2.99 0 0 0 3 12a2.99 2.99 0 0 0 5.04 2.19l7.12 4.16c-.05.21-.08.43-.08.65A2.92 2.92 0 1 0 18 16.08z",
  report: "M14.4 6 14 4H5v17h2v-7h5.6l.4 2h7V6z",
  copy: "M16 1H4a2 2 0 0 0-2 2v14h2V3h12zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11z",
  curate:
    "m21.41 11.58-9-9A2 2 0 0 0 11 2H4a2 2 0 0 0-2 2v7c0 .55.22 1.05.59 1.42l9 9a2 2 0 0 0 2.82 0l7-7a2 2 0 0 0 0-2.84zM5.5 7a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z",
  create: "M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z",
  // Issue 12: the owner's and collaborators' actions (OwnerTools).
  edit: "M3 17.25V21h3.75L17.81 9.94l-3.75-3.75zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z",
  comment:
    "M21.99 4c0-1.1-.89-2-1.99-2H4c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h14l4 4zM18 14H6v-2h12zm0-3H6V9h12zm0-3H6V6h12z",
  sharing:
    "M18 8h-1V6A5 5 0 0 0 7 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zm-6 9a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm3.1-9H8.9V6a3.1 3.1 0 0 1 6.2 0z",
  analytics: "M5 9.2h3V19H5zM10.6 5h2.8v14h-2.8zm5.6 8H19v6h-2.8z",
} as const;

export type ToolbarIcon = keyof typeof TOOLBAR_ICONS;

/** An action's icon and its label (the label is the accessible name at every width). */
export function ToolbarActionLabel({ icon, children }: { icon: ToolbarIcon; children: ReactNode }) {
  return (
    <>
      <Icon className="toolbar__icon" path={TOOLBAR_ICONS[icon]} />
      <span className="toolbar__label">{children}</span>
    </>
  );
}

/** A toolbar action's icon and words (its label and tooltip); `children` follow the label. */
interface ToolbarActionProps {
  icon: ToolbarIcon;
  label: MessageId;
  /** The page's main call to action. */
  primary?: boolean;
  children?: ReactNode;
}

const actionClass = (primary: boolean | undefined) => `button${primary ? " button--primary" : ""} toolbar__action`;

/** A toolbar action that goes to another page: a link with its icon and label, the label its tooltip too. */
export function ToolbarLink({
  icon,
  label,
  primary,
  children,
  ...link
}: ToolbarActionProps & Omit<ComponentProps<"a">, "className" | "title">) {
  const intl = useIntl();
  return (
    <a className={actionClass(primary)} {...link} title={intl.formatMessage({ id: label })}>
      <ToolbarActionLabel icon={icon}>
        <FormattedMessage id={label} />
        {children}
      </ToolbarActionLabel>
    </a>
  );
}

/** A toolbar action done on the page (a dialog): a button with its icon and label, the label its tooltip too. */
export function ToolbarButton({
  icon,
  label,
  primary,
  ...button
}: Omit<ToolbarActionProps, "children"> & Omit<ComponentProps<"button">, "className" | "title" | "type">) {
  const intl = useIntl();
  return (
    <button type="button" className={actionClass(primary)} {...button} title={intl.formatMessage({ id: label })}>
      <ToolbarActionLabel icon={icon}>
        <FormattedMessage id={label} />
      </ToolbarActionLabel>
    </button>
  );
}
