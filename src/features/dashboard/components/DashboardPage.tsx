import type { LocalImage, MarkdownWarning } from "../../../document/markdown";
import { FormattedDate, FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import {
  ButtonForm,
  CheckboxField,
  FieldList,
  type FieldSpec,
  FormMessageNotice,
  FormPanel,
  FormSection,
  MessageLabel,
  PostForm,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from "../../../ui/Form";
import { LinkButton } from "../../../ui/LinkButton";
import { PageIntro } from "../../../ui/PageIntro";
import { Pagination } from "../../../ui/Pagination";
import { SiteLayout } from "../../../ui/SiteLayout";
import { ImagesSection } from "../../assets/components/ImagesSection";
import { ImportDropZone } from "../../pdf-import/components/ImportDropZone";
import { ImportWarnings } from "../../presentation/components/ImportWarnings";
import { CREATE_PATH, DASHBOARD_PATH, MANAGE_SECTIONS } from "../paths";
import type { DashboardRow, ManageData } from "../service";
import { ActivityChart } from "./ActivityChart";
import { EngagementPanel } from "./EngagementPanel";
import { LiveQuestionsPanel } from "./LiveQuestionsPanel";
import { StartPanel } from "./StartPanel";
import { ThemePicker } from "./ThemePicker";
import { ViewLinkItem } from "./ViewLinkItem";
import { ViewLinkSettingsForm, ViewLinkStats } from "./ViewLinkSettings";
import "./dashboard.css";

export interface Notice {
  kind: "success" | "error";
  messageId: string;
  values?: Record<string, string | number>;
}

export type DashboardPageData =
  | {
      view: "list";
      presentations: DashboardRow[];
      page: number;
      pageCount: number;
      total: number;
      notice: Notice | null;
    }
  | ({
      view: "manage";
      notice: Notice | null;
      importWarnings: MarkdownWarning[];
      /** Issue 28 item 7: image files the Markdown names, to upload (with a localImage warning). */
      localImages: LocalImage[];
    } & ManageData)
  | { view: "delete"; oid: string; title: string }
  /** Issue 13, R2.8 and issue 28, item 3: `/v/create/`, where sign-up lands: a file, a template or an empty deck. */
  | { view: "create"; title: string; problem: Notice | null };

const BASE = DASHBOARD_PATH;
/** Where the drop zone posts a Markdown or JSON file (a PDF goes to the PDF import; routes.ts). */
const IMPORT_PATH = `${DASHBOARD_PATH}import`;

/** The dashboard (spec §2 "My dashboard"): my presentations, import, and sharing of each. */
export function DashboardPage({ data }: { data: DashboardPageData }) {
  return (
    <SiteLayout>
      {data.view === "list" ? <PresentationList data={data} /> : null}
      {data.view === "manage" ? <ManagePresentation data={data} /> : null}
      {data.view === "delete" ? <DeleteConfirmation oid={data.oid} title={data.title} /> : null}
      {data.view === "create" ? <CreatePresentation data={data} /> : null}
    </SiteLayout>
  );
}

function NoticeBanner({ notice }: { notice: Notice | null }) {
  return notice ? <FormMessageNotice kind={notice.kind} message={notice} /> : null;
}

/** Who reads a deck's speaker notes (issue 28), as the owner chooses. */
const NOTES_CHOICES = [
  ["private", "dashboard.notes.private"],
  ["public", "dashboard.notes.public"],
] as const;
/** A presentation's details (spec §2 "My dashboard"): title, description (sanitised HTML), tags. */
const DETAILS_FIELDS: readonly FieldSpec[] = [
  { name: "title", id: "details-title-field", label: "dashboard.field.title", required: true, maxLength: 200 },
  {
    name: "description",
    id: "details-description",
    label: "dashboard.field.description",
    hint: "dashboard.field.descriptionHint",
    multiline: true,
    maxLength: 20000,
  },
  { name: "tags", id: "details-tags", label: "dashboard.field.tags", hint: "dashboard.field.tagsHint" },
];
/** The right a collaborator gets (spec §6): comment, or edit. */
const RIGHT_CHOICES = [
  ["comment", "dashboard.people.canComment"],
  ["edit", "dashboard.people.canEdit"],
] as const;

/**
 * Issue 28: the deck's speaker notes, on the import result and the manage page: how many slides
 * have them, who reads them, and the owner's choice. Shown once the deck has notes (or had them published).
 */
function SpeakerNotesChoice({ action, notes }: { action: string; notes: ManageData["presentation"]["notes"] }) {
  if (notes.slides === 0 && !notes.published) return null;
  return (
    <section className="panel" aria-labelledby="notes-title" data-testid="notes-choice">
      <h2 id="notes-title">
        <FormattedMessage id="dashboard.notes" />
      </h2>
      <p className="dashboard__lead">
        <FormattedMessage
          id={notes.published ? "dashboard.notes.countPublic" : "dashboard.notes.countPrivate"}
          values={{ count: notes.slides }}
        />
      </p>
      <PostForm action={action}>
        <SelectField
          name="notes"
          id="notes-choice"
          label={<FormattedMessage id="dashboard.notes.choice" />}
          defaultValue={notes.published ? "public" : "private"}
          choices={NOTES_CHOICES}
        />
        <SubmitButton message="dashboard.notes.save" />
      </PostForm>
    </section>
  );
}

/** Issue 33 item 4: whether viewers of the public page may download the deck (off by default). */
function DownloadChoice({ action, allowed }: { action: string; allowed: boolean }) {
  return (
    <FormSection id="downloads-title" title={<FormattedMessage id="dashboard.downloads" />}>
      <PostForm action={action}>
        <CheckboxField
          name="allowDownload"
          defaultChecked={allowed}
          label={<FormattedMessage id="dashboard.downloads.allow" />}
          hint={<FormattedMessage id="dashboard.downloads.hint" />}
          hintId="downloads-hint"
        />
        <SubmitButton message="dashboard.downloads.save" />
      </PostForm>
    </FormSection>
  );
}

/**
 * Issue 34: the sites that may embed the deck, one a line; empty, any site may. The embed page's
 * frame-ancestors (its CSP) and its API follow the list.
 */
function EmbedHostsForm({ action, hosts }: { action: string; hosts: string[] }) {
  return (
    <FormSection id="embed-hosts-title" title={<FormattedMessage id="dashboard.embedHosts" />}>
      <PostForm action={action}>
        <TextAreaField
          name="hosts"
          id="embed-hosts"
          rows={3}
          spellCheck={false}
          label={<FormattedMessage id="dashboard.embedHosts.label" />}
          hint={<FormattedMessage id="dashboard.embedHosts.hint" />}
          hintAfter
          defaultValue={hosts.join("\n")}
        />
        <SubmitButton message="dashboard.embedHosts.save" />
      </PostForm>
    </FormSection>
  );
}

function PrivacyLabel({ privacy }: { privacy: string }) {
  return (
    <span className={`privacy privacy--${privacy}`}>
      <FormattedMessage id={`privacy.${privacy}` as MessageId} />
    </span>
  );
}

function PrivacyOptions() {
  const intl = useIntl();
  return (
    <>
      {(["public", "reusable", "unlisted", "private"] as const).map((privacy) => (
        <option key={privacy} value={privacy}>
          {intl.formatMessage({ id: `privacy.${privacy}` as MessageId })} —{" "}
          {intl.formatMessage({ id: `privacy.${privacy}.hint` as MessageId })}
        </option>
      ))}
    </>
  );
}

function PresentationList({ data }: { data: Extract<DashboardPageData, { view: "list" }> }) {
  const intl = useIntl();
  return (
    <div className="dashboard">
      <PageIntro
        className="dashboard__head"
        title="dashboard.title"
        lead="dashboard.count"
        leadValues={{ count: data.total }}
      />
      <NoticeBanner notice={data.notice} />

      {/* Issue 28, item 3: with no decks yet, the way to the first one comes first; once there are some, the list does. */}
      {data.total === 0 ? (
        <StartPanel importAction={IMPORT_PATH} />
      ) : (
        <section aria-labelledby="mine-title">
          <h2 id="mine-title" className="home-section-title">
            <FormattedMessage id="dashboard.mine" />
          </h2>
          <ul className="dashboard__list">
            {data.presentations.map((p) => (
              <li key={p.oid} className="dashboard__item">
                <img src={p.thumbnailUrl} alt="" width={160} height={90} loading="lazy" />
                <div className="dashboard__item-body">
                  <h3>
                    <a href={p.viewUrl}>{p.title}</a>
                  </h3>
                  <p className="dashboard__meta">
                    <PrivacyLabel privacy={p.privacy} />
                    <span>
                      <FormattedMessage id="presentation.views" values={{ count: p.viewCount }} />
                    </span>
                    <span>
                      <FormattedMessage id="presentation.likes" values={{ count: p.likesCount }} />
                    </span>
                    <span>
                      <FormattedMessage
                        id="presentation.lastModified"
                        values={{ date: <FormattedDate value={p.lastModified} dateStyle="medium" timeZone="UTC" /> }}
                      />
                    </span>
                  </p>
                </div>
                <div className="dashboard__item-actions">
                  <a
                    className="button button--primary"
                    href={p.editorUrl}
                    aria-label={intl.formatMessage({ id: "dashboard.editLabel" }, { title: p.title })}
                  >
                    <FormattedMessage id="dashboard.edit" />
                  </a>
                  <a
                    className="button"
                    href={`${BASE}presentations/${p.oid}/`}
                    aria-label={intl.formatMessage({ id: "dashboard.manageLabel" }, { title: p.title })}
                  >
                    <FormattedMessage id="dashboard.manage" />
                  </a>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={data.page} pageCount={data.pageCount} hrefFor={(n) => `${BASE}?page=${n}`} />
        </section>
      )}

      {data.total > 0 ? <ImportDropZone action={IMPORT_PATH} compact /> : null}

      <ImagesSection />
    </div>
  );
}

/**
 * Issue 13, R2.8 and issue 28, item 3: `/v/create/`, where sign-up lands. The same drop zone as
 * an empty dashboard's, a template, and (second) an empty presentation with a title.
 */
function CreatePresentation({ data }: { data: Extract<DashboardPageData, { view: "create" }> }) {
  const intl = useIntl();
  const problem = data.problem
    ? intl.formatMessage({ id: data.problem.messageId as MessageId }, data.problem.values)
    : null;
  return (
    <div className="dashboard">
      <PageIntro className="dashboard__head" title="accounts.create.title" lead="start.create.lead" />
      <StartPanel importAction={IMPORT_PATH} />
      <FormSection
        id="empty-deck-title"
        title={<FormattedMessage id="start.empty.title" />}
        lead={<FormattedMessage id="accounts.create.lead" />}
      >
        <PostForm action={CREATE_PATH} className="form start-empty">
          <TextField
            name="title"
            label={intl.formatMessage({ id: "accounts.create.field" })}
            defaultValue={data.title || intl.formatMessage({ id: "accounts.create.untitled" })}
            error={problem}
            required
            maxLength={200}
          />
          <SubmitButton variant="plain" message="accounts.create.submit" />
        </PostForm>
      </FormSection>
    </div>
  );
}

function ManagePresentation({ data }: { data: Extract<DashboardPageData, { view: "manage" }> }) {
  const intl = useIntl();
  const p = data.presentation;
  const path = `${BASE}presentations/${p.oid}`;
  const live = data.viewLinks.filter((link) => link.revokedAt === null);
  const revoked = data.viewLinks.filter((link) => link.revokedAt !== null);
  return (
    <div className="dashboard">
      <p className="dashboard__back">
        <a href={BASE}>
          <FormattedMessage id="dashboard.back" />
        </a>
      </p>
      <div className="dashboard__head">
        <h1>{p.title}</h1>
        <p className="dashboard__meta">
          <PrivacyLabel privacy={p.privacy} />
        </p>
        <div className="dashboard__head-actions">
          <LinkButton href={p.editorUrl} message="dashboard.edit" variant="primary" />
          <LinkButton href={p.viewUrl} message="dashboard.open" />
        </div>
      </div>
      <NoticeBanner notice={data.notice} />
      <ImportWarnings warnings={data.importWarnings} localImages={data.localImages} oid={data.presentation.oid} />
      <SpeakerNotesChoice action={`${path}/notes`} notes={p.notes} />

      <ActivityChart activity={data.activity} />
      <EngagementPanel
        action={`${path}/`}
        engagement={data.engagement}
        links={data.viewLinks
          .filter((link) => link.revokedAt === null)
          .map((link) => ({ linkId: link.linkId, name: link.name }))}
      />
      <LiveQuestionsPanel sessions={data.liveQuestions} />

      <FormSection id="details-title" title={<FormattedMessage id="dashboard.details" />}>
        <PostForm action={`${path}/details`}>
          <FieldList
            fields={DETAILS_FIELDS}
            values={{ title: p.title, description: p.descriptionHtml, tags: p.tags.join(", ") }}
          />
          <SelectField
            name="privacy"
            id="details-privacy"
            label={<FormattedMessage id="dashboard.privacy" />}
            defaultValue={p.privacy}
          >
            <PrivacyOptions />
          </SelectField>
          <SubmitButton message="dashboard.save" />
        </PostForm>
      </FormSection>

      <ThemePicker action={`${path}/theme`} current={p.theme} />

      <EmbedHostsForm action={`${path}/embed-hosts`} hosts={p.embedHosts} />
      <DownloadChoice action={`${path}/downloads`} allowed={p.allowDownload} />
      <FormSection
        id="links-title"
        sectionId={MANAGE_SECTIONS.sharing}
        title={<FormattedMessage id="dashboard.links" />}
        lead={<FormattedMessage id="dashboard.links.lead" />}
      >
        {live.length > 0 ? (
          <ul className="view-links">
            {live.map((link, index) => (
              <ViewLinkItem
                key={link.linkId}
                url={link.url}
                createdAt={link.createdAt}
                index={index}
                privateDeck={p.privacy === "private"}
                forPresenting={link.forPresenting}
                name={link.name}
                stats={<ViewLinkStats link={link} />}
                settings={
                  <ViewLinkSettingsForm
                    link={link}
                    index={index}
                    action={`${path}/view-links/${link.linkId}/settings`}
                  />
                }
                revoke={
                  <ButtonForm
                    action={`${path}/view-links/${link.linkId}/revoke`}
                    variant="danger-quiet"
                    label={intl.formatMessage({ id: "dashboard.links.revokeLabel" }, { url: link.url })}
                    message="dashboard.links.revoke"
                  />
                }
              />
            ))}
          </ul>
        ) : (
          <p>
            <FormattedMessage id="dashboard.links.none" />
          </p>
        )}
        {revoked.length > 0 ? (
          <p className="field__hint">
            <FormattedMessage id="dashboard.links.revokedCount" values={{ count: revoked.length }} />
          </p>
        ) : null}
        <PostForm action={`${path}/view-links`} className="inline-form">
          {/* Issue 33: the link's name, for the owner ("Investor: Acme"). */}
          <div className="field">
            <MessageLabel htmlFor="new-link-name" message="dashboard.links.name" />
            <input id="new-link-name" name="name" type="text" maxLength={100} />
          </div>
          {/* Issue 28: a link made for presenting also opens the presenter view, notes included. */}
          <label className="checkbox">
            <input type="checkbox" name="forPresenting" value="on" />{" "}
            <FormattedMessage id="dashboard.links.forPresenting" />
          </label>
          <SubmitButton message="dashboard.links.create" />
        </PostForm>
      </FormSection>

      <FormSection
        id="people-title"
        title={<FormattedMessage id="dashboard.people" />}
        lead={<FormattedMessage id="dashboard.people.lead" />}
      >
        {data.collaborators.length > 0 ? (
          <ul className="link-list">
            {data.collaborators.map((person) => (
              <li key={person.userOid}>
                <span className="link-list__url">
                  {person.name} ({person.email})
                </span>
                <span className="link-list__date">
                  <FormattedMessage
                    id={person.right === "edit" ? "dashboard.people.canEdit" : "dashboard.people.canComment"}
                  />
                </span>
                <ButtonForm
                  action={`${path}/collaborators/${person.userOid}/remove`}
                  variant="danger-quiet"
                  label={intl.formatMessage({ id: "dashboard.people.removeLabel" }, { name: person.name })}
                  message="dashboard.people.remove"
                />
              </li>
            ))}
          </ul>
        ) : null}
        <PostForm action={`${path}/collaborators`} className="form people-form">
          <TextField
            name="email"
            id="people-email"
            type="email"
            label={<FormattedMessage id="accounts.field.email" />}
            required
            autoComplete="off"
          />
          <SelectField
            name="right"
            id="people-right"
            label={<FormattedMessage id="dashboard.people.right" />}
            defaultValue="comment"
            choices={RIGHT_CHOICES}
          />
          <SubmitButton message="dashboard.people.add" />
        </PostForm>
      </FormSection>

      <FormSection
        id="danger-title"
        className="panel panel--danger"
        title={<FormattedMessage id="dashboard.delete.title" />}
      >
        <p>
          <FormattedMessage id="dashboard.delete.lead" />
        </p>
        <LinkButton href={`${path}/delete`} message="dashboard.delete.start" variant="danger" />
      </FormSection>
    </div>
  );
}

function DeleteConfirmation({ oid, title }: { oid: string; title: string }) {
  return (
    <FormPanel
      id="confirm-title"
      title={<FormattedMessage id="dashboard.delete.confirmTitle" values={{ title }} />}
      lead={<FormattedMessage id="dashboard.delete.confirmLead" />}
    >
      <PostForm action={`${BASE}presentations/${oid}/delete`} className="confirm-actions">
        <SubmitButton variant="danger" message="dashboard.delete.confirm" />
        <a className="button" href={`${BASE}presentations/${oid}/`}>
          <FormattedMessage id="dashboard.delete.cancel" />
        </a>
      </PostForm>
    </FormPanel>
  );
}
