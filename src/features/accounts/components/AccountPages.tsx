import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { LOCALES } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { accountPath, type SignInReason } from "../../../lib/sign-in-reason";
import { Avatar } from "../../../ui/Avatar";
import { CardList, FIRST_ROW_CARDS } from "../../../ui/CardList";
import {
  ButtonForm,
  FieldList,
  type FieldSpec,
  FormMessageNotice,
  FormNotice,
  FormPanel,
  type FormProblem,
  FormSection,
  PostForm,
  SelectField,
  SubmitButton,
  TextField,
  useFieldError,
} from "../../../ui/Form";
import { SiteLayout } from "../../../ui/SiteLayout";

/** What a form page shows again after a failed submit (the form kit's, ui/Form.tsx). */
export type { FormProblem };

export type AccountPageData =
  | { page: "login"; next: string; reason: SignInReason | null; email: string; problem: FormProblem | null }
  | {
      page: "signup";
      next: string;
      /** Issue 12: why they came (a signed-out Like), said at the top of the form. */
      reason: SignInReason | null;
      values: Record<string, string>;
      problem: FormProblem | null;
    }
  | { page: "logout"; name: string }
  /** Issue 13, R2.8: what will you use Podium for? (the author segment, spec §3). */
  | { page: "segment"; problem: FormProblem | null }
  | {
      page: "settings";
      profile: { firstName: string; lastName: string; publicDisplayName: string; language: string; email: string };
      saved: "profile" | "password" | null;
      problem: FormProblem | null;
    }
  | {
      page: "profile";
      owner: { name: string; initials: string; color: string };
      presentations: Card[];
    };

/** The account pages: log in, sign up, log out, settings and a person's public profile. */
export function AccountPage({ data }: { data: AccountPageData }) {
  return (
    <SiteLayout>
      <AccountPageBody data={data} />
    </SiteLayout>
  );
}

/** Each account page's body, by the page the data names. */
const ACCOUNT_PAGES: { [P in AccountPageData["page"]]: (data: Extract<AccountPageData, { page: P }>) => ReactNode } = {
  login: (data) => <LoginForm data={data} />,
  signup: (data) => <SignupForm data={data} />,
  logout: (data) => <LogoutForm name={data.name} />,
  segment: (data) => <SegmentForm problem={data.problem} />,
  settings: (data) => <SettingsForms data={data} />,
  profile: (data) => <Profile data={data} />,
};

function AccountPageBody({ data }: { data: AccountPageData }) {
  // The table's entry for data.page takes that page's data (TypeScript can't pair them itself).
  return (ACCOUNT_PAGES[data.page] as (data: AccountPageData) => ReactNode)(data);
}

function FormProblemNotice({ problem }: { problem: FormProblem | null }) {
  return <FormMessageNotice kind="error" message={problem} />;
}

/** Spec §2's names, at most this long (the server says so again: service.ts). */
const NAME_MAX_LENGTH = 100;
const NAME_FIELDS: readonly FieldSpec[] = [
  {
    name: "firstName",
    label: "accounts.field.firstName",
    autoComplete: "given-name",
    required: true,
    maxLength: NAME_MAX_LENGTH,
  },
  { name: "lastName", label: "accounts.field.lastName", autoComplete: "family-name", maxLength: NAME_MAX_LENGTH },
  {
    name: "publicDisplayName",
    label: "accounts.field.publicDisplayName",
    hint: "accounts.field.publicDisplayNameHint",
    maxLength: NAME_MAX_LENGTH,
  },
];

/** The name fields of sign-up and settings (spec §2: first name, last name, public display name). */
function NameFields({
  values,
  fieldError,
}: {
  values: { firstName?: string; lastName?: string; publicDisplayName?: string };
  fieldError: (field: string) => string | null;
}) {
  return <FieldList fields={NAME_FIELDS} values={values} errorOf={fieldError} />;
}

/** A new password: at least ten characters (the server says so again if not). */
function NewPasswordField({ name, label, error }: { name: string; label: string; error: string | null }) {
  const intl = useIntl();
  return (
    <TextField
      name={name}
      type="password"
      label={label}
      hint={intl.formatMessage({ id: "accounts.field.passwordHint" })}
      error={error}
      autoComplete="new-password"
      required
      minLength={10}
    />
  );
}

/** The line under a sign-in or sign-up form that leads to the other one. */
function SwitchLink({ id, href }: { id: MessageId; href: string }) {
  return (
    <p className="auth-panel__switch">
      <FormattedMessage id={id} values={{ link: (text) => <a href={href}>{text}</a> }} />
    </p>
  );
}

/**
 * Log in and sign up, side by side (each posts to `/<kind>/` and links to the other): their
 * messages, the usual one first and then the one for a visitor sent by a signed-out Like.
 */
const AUTH_FORMS = {
  login: {
    title: ["accounts.login.title", "accounts.login.likeTitle"],
    lead: ["accounts.login.lead", "accounts.login.likeLead"],
    submit: "accounts.login.submit",
    switchTo: "accounts.login.noAccount",
  },
  signup: {
    title: ["accounts.signup.title", "likes.signUpToLike"],
    lead: ["accounts.signup.lead", "accounts.signup.likeLead"],
    submit: "accounts.signup.submit",
    switchTo: "accounts.signup.haveAccount",
  },
} as const satisfies Record<
  "login" | "signup",
  {
    title: readonly [MessageId, MessageId];
    lead: readonly [MessageId, MessageId];
    submit: MessageId;
    switchTo: MessageId;
  }
>;

/**
 * A log-in or sign-up page: a panel whose heading and lead say why the visitor came, the form
 * with where to go after, and the link to the other form.
 */
function AuthForm({
  kind,
  data,
  children,
}: {
  kind: keyof typeof AUTH_FORMS;
  data: { next: string; reason: SignInReason | null; problem: FormProblem | null };
  children: ReactNode;
}) {
  const form = AUTH_FORMS[kind];
  const like = data.reason === "like" ? 1 : 0;
  const other = kind === "login" ? "/signup/" : "/login/";
  return (
    <FormPanel
      id={`${kind}-title`}
      title={<FormattedMessage id={form.title[like]} />}
      lead={<FormattedMessage id={form.lead[like]} />}
    >
      <PostForm action={`/${kind}/`}>
        <FormProblemNotice problem={data.problem} />
        <input type="hidden" name="next" value={data.next} />
        {data.reason ? <input type="hidden" name="reason" value={data.reason} /> : null}
        {children}
        <SubmitButton>
          <FormattedMessage id={form.submit} />
        </SubmitButton>
      </PostForm>
      <SwitchLink id={form.switchTo} href={accountPath(other, data.next, data.reason)} />
    </FormPanel>
  );
}

function LoginForm({ data }: { data: Extract<AccountPageData, { page: "login" }> }) {
  const intl = useIntl();
  return (
    <AuthForm kind="login" data={data}>
      <TextField
        name="email"
        type="email"
        label={intl.formatMessage({ id: "accounts.field.email" })}
        defaultValue={data.email}
        autoComplete="email"
        required
      />
      <TextField
        name="password"
        type="password"
        label={intl.formatMessage({ id: "accounts.field.password" })}
        autoComplete="current-password"
        required
      />
    </AuthForm>
  );
}

function SignupForm({ data }: { data: Extract<AccountPageData, { page: "signup" }> }) {
  const intl = useIntl();
  const fieldError = useFieldError(data.problem);
  const field = (id: MessageId) => intl.formatMessage({ id });
  return (
    <AuthForm kind="signup" data={data}>
      <NameFields values={data.values} fieldError={fieldError} />
      <TextField
        name="email"
        type="email"
        label={field("accounts.field.email")}
        defaultValue={data.values.email}
        error={fieldError("email")}
        autoComplete="email"
        required
      />
      <NewPasswordField name="password" label={field("accounts.field.password")} error={fieldError("password")} />
    </AuthForm>
  );
}

function LogoutForm({ name }: { name: string }) {
  return (
    <FormPanel
      id="logout-title"
      title={<FormattedMessage id="accounts.logout.title" />}
      lead={<FormattedMessage id="accounts.logout.lead" values={{ name }} />}
    >
      <ButtonForm action="/logout" className="form" variant="primary" message="accounts.logout.submit" />
    </FormPanel>
  );
}

function SettingsForms({ data }: { data: Extract<AccountPageData, { page: "settings" }> }) {
  const intl = useIntl();
  const fieldError = useFieldError(data.problem);
  const field = (id: MessageId) => intl.formatMessage({ id });
  const passwordProblem = data.problem && ["currentPassword", "password"].includes(data.problem.field);
  return (
    <div className="settings">
      <h1>
        <FormattedMessage id="settings.title" />
      </h1>
      {data.saved ? (
        <FormNotice kind="success">
          <FormattedMessage id={data.saved === "profile" ? "settings.saved.profile" : "settings.saved.password"} />
        </FormNotice>
      ) : null}
      <FormSection id="settings-profile" title={<FormattedMessage id="settings.profile" />}>
        <PostForm action="/settings/">
          {data.problem && !passwordProblem ? <FormProblemNotice problem={data.problem} /> : null}
          <NameFields values={data.profile} fieldError={fieldError} />
          <SelectField
            name="language"
            id="field-language"
            label={<FormattedMessage id="accounts.field.language" />}
            defaultValue={data.profile.language}
          >
            <option value="">{field("accounts.field.languageDefault")}</option>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {field(`language.${locale}` as MessageId)}
              </option>
            ))}
          </SelectField>
          <SubmitButton message="settings.saveProfile" />
        </PostForm>
      </FormSection>
      <FormSection id="settings-password" title={<FormattedMessage id="settings.password" />}>
        <PostForm action="/settings/password">
          {passwordProblem ? <FormProblemNotice problem={data.problem} /> : null}
          <TextField
            name="currentPassword"
            type="password"
            label={field("accounts.field.currentPassword")}
            error={fieldError("currentPassword")}
            autoComplete="current-password"
            required
          />
          <NewPasswordField
            name="newPassword"
            label={field("accounts.field.newPassword")}
            error={fieldError("password")}
          />
          <SubmitButton message="settings.changePassword" />
        </PostForm>
      </FormSection>
    </div>
  );
}

/** A public profile's head (spec §2 /user/{oid}/): the person's avatar, name and how many decks they show. */
function ProfileHeader({ owner, count }: { owner: { name: string; initials: string; color: string }; count: number }) {
  return (
    <header className="profile__header">
      <Avatar initials={owner.initials} color={owner.color} size={72} />
      <div>
        <h1>{owner.name}</h1>
        <p>
          <FormattedMessage id="profile.count" values={{ count }} />
        </p>
      </div>
    </header>
  );
}

function Profile({ data }: { data: Extract<AccountPageData, { page: "profile" }> }) {
  const listLabel = useIntl().formatMessage({ id: "profile.presentations" });
  return (
    <div className="profile">
      <ProfileHeader owner={data.owner} count={data.presentations.length} />
      <h2 className="home-section-title">
        <FormattedMessage id="profile.presentations" />
      </h2>
      {data.presentations.length > 0 ? (
        <CardList eager={FIRST_ROW_CARDS} cards={data.presentations} label={listLabel} />
      ) : (
        <p>
          <FormattedMessage id="profile.empty" values={{ name: data.owner.name }} />
        </p>
      )}
    </div>
  );
}

/** Spec §3 authorSegment: the four answers, in the order they are offered (R2.8). */
const SEGMENT_CHOICES = [
  { value: "sales-marketing", label: "accounts.segment.salesMarketing" },
  { value: "teacher", label: "accounts.segment.teacher" },
  { value: "student", label: "accounts.segment.student" },
  { value: "other", label: "accounts.segment.other" },
] as const satisfies readonly { value: string; label: MessageId }[];

/** Issue 13, R2.8: the first step of Get started. The answer picks the trending searches (R3.6). */
function SegmentForm({ problem }: { problem: FormProblem | null }) {
  return (
    <FormPanel
      id="segment-title"
      title={<FormattedMessage id="accounts.segment.title" />}
      lead={<FormattedMessage id="accounts.segment.lead" />}
    >
      <PostForm action="/signup/segment/">
        <FormProblemNotice problem={problem} />
        <fieldset className="segment-choices" aria-describedby={problem ? "segment-error" : undefined}>
          <legend className="segment-choices__legend">
            <FormattedMessage id="accounts.segment.legend" />
          </legend>
          {SEGMENT_CHOICES.map((choice) => (
            <label key={choice.value} className="segment-choice">
              <input type="radio" name="segment" value={choice.value} required />
              <span>
                <FormattedMessage id={choice.label} />
              </span>
            </label>
          ))}
          {problem ? (
            <p id="segment-error" className="field__error">
              <FormattedMessage id={problem.messageId as MessageId} values={problem.values} />
            </p>
          ) : null}
        </fieldset>
        <SubmitButton message="accounts.segment.submit" />
      </PostForm>
      <SwitchLink id="accounts.signup.haveAccount" href="/login/" />
    </FormPanel>
  );
}
