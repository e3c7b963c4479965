import { FormattedDate, FormattedMessage, useIntl } from "../../../i18n/intl";
import { PostForm } from "../../../ui/Form";

/** Issue 33: what the link list knows of one link (dashboard service's ManageData). */
export interface ViewLinkFacts {
  linkId: string;
  name: string;
  expiresOn: string | null;
  expired: boolean;
  hasPasscode: boolean;
  allowDownload: boolean;
  enabled: boolean;
  views: number;
  lastViewedAt: string | null;
  /** Issue 33: the share of its visits that reached the last step (the analytics' period), or null. */
  completionRate?: number | null;
}

/** Issue 33 item 3: a link's views, last view and state, in words, under its address. */
export function ViewLinkStats({ link }: { link: ViewLinkFacts }) {
  const intl = useIntl();
  return (
    <>
      <span>
        <FormattedMessage id="dashboard.links.views" values={{ count: link.views }} />
      </span>
      <span>
        {link.lastViewedAt ? (
          <FormattedMessage
            id="dashboard.links.lastView"
            values={{ date: <FormattedDate value={link.lastViewedAt} dateStyle="medium" timeZone="UTC" /> }}
          />
        ) : (
          <FormattedMessage id="dashboard.links.neverViewed" />
        )}
      </span>
      {link.completionRate !== undefined && link.completionRate !== null ? (
        <span>
          <FormattedMessage
            id="dashboard.links.completion"
            values={{ rate: intl.formatNumber(link.completionRate, { style: "percent", maximumFractionDigits: 0 }) }}
          />
        </span>
      ) : null}
      {!link.enabled ? (
        <span className="view-link__state">
          <FormattedMessage id="dashboard.links.stateOff" />
        </span>
      ) : link.expired ? (
        <span className="view-link__state">
          <FormattedMessage id="dashboard.links.stateExpired" />
        </span>
      ) : link.expiresOn ? (
        <span>
          <FormattedMessage
            id="dashboard.links.expiresOn"
            values={{ date: <FormattedDate value={`${link.expiresOn}T12:00:00Z`} dateStyle="medium" timeZone="UTC" /> }}
          />
        </span>
      ) : null}
      {link.hasPasscode ? (
        <span>
          <FormattedMessage id="dashboard.links.hasPasscode" />
        </span>
      ) : null}
      {link.allowDownload ? (
        <span>
          <FormattedMessage id="dashboard.links.downloadAllowed" />
        </span>
      ) : null}
    </>
  );
}

/**
 * Issue 33 item 3: a link's settings, folded under its address: name, last day, passcode (a new
 * one replaces the old; the old is never shown), allow download, on/off. A plain form: it works
 * without JavaScript.
 */
export function ViewLinkSettingsForm({ link, action, index }: { link: ViewLinkFacts; action: string; index: number }) {
  const intl = useIntl();
  const id = `link-settings-${index}`;
  return (
    <details className="view-link__settings">
      <summary>
        <FormattedMessage id="dashboard.links.settings" />
        <span className="visually-hidden"> {link.name || intl.formatMessage({ id: "dashboard.links.unnamed" })}</span>
      </summary>
      <PostForm action={action} className="form view-link__form">
        <div className="field">
          <label htmlFor={`${id}-name`}>
            <FormattedMessage id="dashboard.links.name" />
          </label>
          <input id={`${id}-name`} name="name" type="text" maxLength={100} defaultValue={link.name} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-expires`}>
            <FormattedMessage id="dashboard.links.expiry" />
          </label>
          <p id={`${id}-expires-hint`} className="field__hint">
            <FormattedMessage id="dashboard.links.expiryHint" />
          </p>
          <input
            id={`${id}-expires`}
            name="expiresOn"
            type="date"
            defaultValue={link.expiresOn ?? ""}
            aria-describedby={`${id}-expires-hint`}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-passcode`}>
            <FormattedMessage id={link.hasPasscode ? "dashboard.links.newPasscode" : "dashboard.links.passcode"} />
          </label>
          <p id={`${id}-passcode-hint`} className="field__hint">
            <FormattedMessage id="dashboard.links.passcodeHint" values={{ min: 4 }} />
          </p>
          <input
            id={`${id}-passcode`}
            name="passcode"
            type="password"
            autoComplete="new-password"
            maxLength={200}
            aria-describedby={`${id}-passcode-hint`}
          />
        </div>
        {link.hasPasscode ? (
          <label className="checkbox">
            <input type="checkbox" name="removePasscode" value="on" />{" "}
            <FormattedMessage id="dashboard.links.removePasscode" />
          </label>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" name="allowDownload" value="on" defaultChecked={link.allowDownload} />{" "}
          <FormattedMessage id="dashboard.links.allowDownload" />
        </label>
        <label className="checkbox">
          <input type="checkbox" name="enabled" value="on" defaultChecked={link.enabled} />{" "}
          <FormattedMessage id="dashboard.links.enabled" />
        </label>
        <button type="submit" className="button button--primary">
          <FormattedMessage id="dashboard.links.saveSettings" />
        </button>
      </PostForm>
    </details>
  );
}
