import { useEffect } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { ButtonForm, FormNotice, FormPanel, MessageLabel, PostForm, SubmitButton } from "../../../ui/Form";
import { LinkButton } from "../../../ui/LinkButton";
import { SiteLayout } from "../../../ui/SiteLayout";
import { TagInput } from "../../../ui/TagInput";
import { REPORT_REASONS } from "../reasons";

export type ModerationPageData =
  | { page: "report"; oid: string; title: string; problem: string | null }
  | { page: "reported"; oid: string; title: string }
  | {
      page: "queue";
      reports: {
        id: string;
        oid: string;
        title: string;
        reason: string;
        details: string;
        createdAt: string;
        hidden: boolean;
      }[];
    }
  | { page: "curate"; oid: string; title: string; hiddenTags: string[]; staffPick: boolean; saved: boolean };

/** Spec §6 admin-tools integration: browser custom events. */
export const ADMIN_TOOLS_EVENTS = {
  invoke: "podium:admin-tools:invoke",
  reinitialize: "podium:admin-tools:reinitialize",
  hiddenTagsLoaded: "podium:admin-tools:hidden-tags-loaded",
} as const;

export function ModerationPage({ data }: { data: ModerationPageData }) {
  return <SiteLayout>{renderModeration(data)}</SiteLayout>;
}

function renderModeration(data: ModerationPageData) {
  switch (data.page) {
    case "report":
      return <ReportForm data={data} />;
    case "reported":
      return (
        <FormPanel
          id="reported-title"
          title={<FormattedMessage id="report.thanks.title" />}
          lead={<FormattedMessage id="report.thanks.body" values={{ title: data.title }} />}
        >
          <LinkButton href={`/p/${data.oid}/`} message="report.back" />
        </FormPanel>
      );
    case "queue":
      return <Queue data={data} />;
    case "curate":
      return <Curate data={data} />;
  }
}

function ReportForm({ data }: { data: Extract<ModerationPageData, { page: "report" }> }) {
  const intl = useIntl();
  return (
    <FormPanel
      id="report-title"
      title={<FormattedMessage id="report.title" />}
      lead={<FormattedMessage id="report.lead" values={{ title: data.title }} />}
    >
      <PostForm action={`/contact/abuse/${data.oid}/`}>
        {data.problem ? (
          <FormNotice kind="error">
            <FormattedMessage id={data.problem as MessageId} />
          </FormNotice>
        ) : null}
        <fieldset className="field report-reasons">
          <legend>
            <FormattedMessage id="report.reason" />
          </legend>
          {REPORT_REASONS.map((reason, index) => (
            <label key={reason} className="report-reasons__option">
              <input type="radio" name="reason" value={reason} required defaultChecked={index === 0} />{" "}
              {intl.formatMessage({ id: `report.reason.${reason}` as MessageId })}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <MessageLabel htmlFor="report-details" message="report.details" />
          <textarea id="report-details" name="details" maxLength={2000} />
        </div>
        <SubmitButton message="report.submit" />
      </PostForm>
    </FormPanel>
  );
}

function Queue({ data }: { data: Extract<ModerationPageData, { page: "queue" }> }) {
  const intl = useIntl();
  return (
    <div className="dashboard">
      <h1>
        <FormattedMessage id="moderation.title" />
      </h1>
      {data.reports.length === 0 ? (
        <p>
          <FormattedMessage id="moderation.empty" />
        </p>
      ) : (
        <ul className="dashboard__list">
          {data.reports.map((report) => (
            <li key={report.id} className="dashboard__item">
              <div className="dashboard__item-body">
                <h2>
                  <a href={`/p/${report.oid}/`}>{report.title}</a>
                </h2>
                <p className="dashboard__meta">
                  <span>{intl.formatMessage({ id: `report.reason.${report.reason}` as MessageId })}</span>
                  <FormattedDate value={report.createdAt} dateStyle="medium" timeStyle="short" timeZone="UTC" />
                  {report.hidden ? <FormattedMessage id="moderation.alreadyHidden" /> : null}
                </p>
                {report.details ? <p>{report.details}</p> : null}
              </div>
              <ButtonForm action={`/admin/reports/${report.id}/hide`} variant="danger" message="moderation.hide" />
              <ButtonForm action={`/admin/reports/${report.id}/dismiss`} variant="plain" message="moderation.dismiss" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Curate({ data }: { data: Extract<ModerationPageData, { page: "curate" }> }) {
  useEffect(() => {
    // Spec §6: tell the admin tools whether hidden tags were loaded, and (after a save) the presentation again.
    window.dispatchEvent(
      new CustomEvent(ADMIN_TOOLS_EVENTS.hiddenTagsLoaded, { detail: { hasTags: data.hiddenTags.length > 0 } }),
    );
    if (data.saved) {
      window.dispatchEvent(
        new CustomEvent(ADMIN_TOOLS_EVENTS.reinitialize, { detail: { title: data.title, oid: data.oid } }),
      );
    }
  }, [data]);
  return (
    <section className="panel auth-panel" aria-labelledby="curate-title">
      <h1 id="curate-title">
        <FormattedMessage id="curation.title" values={{ title: data.title }} />
      </h1>
      {data.saved ? (
        <FormNotice kind="success">
          <FormattedMessage id="curation.saved" />
        </FormNotice>
      ) : null}
      <PostForm action={`/curation/${data.oid}/`}>
        <div className="field">
          <MessageLabel htmlFor="curation-tags" message="curation.hiddenTags" />
          <TagInput id="curation-tags" name="hiddenTags" defaultTags={data.hiddenTags} />
        </div>
        <label className="checkbox">
          <input type="checkbox" name="staffPick" value="on" defaultChecked={data.staffPick} />{" "}
          <FormattedMessage id="curation.staffPick" />
        </label>
        <button
          type="submit"
          className="button button--primary"
          onClick={() =>
            window.dispatchEvent(new CustomEvent(ADMIN_TOOLS_EVENTS.invoke, { detail: { oid: data.oid } }))
          }
        >
          <FormattedMessage id="curation.save" />
        </button>
      </PostForm>
    </section>
  );
}
