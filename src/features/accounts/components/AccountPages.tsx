import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { LOCALES } from "../../../i18n/locales";
import type { Card } from "../../../lib/card";
import { accountPath, type SignInReason } from "../../../lib/sign-in-reason";
import { Avatar } from "../../../ui/Avatar";
import { CardList, FIRST_ROW_CARDS } from "../../../ui/CardList";
import { FormNotice, PostForm, TextField } from "../../../ui/Form";
import { SiteLayout } from "../../../ui/SiteLayout";

/** What a form page shows again after a failed submit. */
export interface FormProblem {
  field: string;
  messageId: string;
  values?: Record<string, number | string>;
}

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
  return <SiteLayout>{renderAccountPage(data)}</SiteLayout>;
}

function renderAccountPage(data: AccountPageData) {
  switch (data.page) {
    case "login":
      return <LoginForm data={data} />;
    case "signup":
      return <SignupForm data={data} />;
    case "logout":
      return <LogoutForm name={data.name} />;
    case "segment":
      return <SegmentForm problem={data.problem} />;
    case "settings":
      return <SettingsForms data={data} />;
    case "profile":
      return <Profile data={data} />;
  }
}

function useProblemText(problem: FormProblem | null) {
  const intl = useIntl();
  return (field: string) =>
    problem && problem.field === field
      ? intl.formatMessage({ id: problem.messageId as MessageId }, problem.values)
      : null;
}

function FormProblemNotice({ problem }: { problem: FormProblem | null }) {
  if (!problem) return null;
  return (
    <FormNotice kind="error">
      <FormattedMessage id={problem.messageId as MessageId} values={problem.values} />
    </FormNotice>
  );
}

function LoginForm({ data }: { data: Extract<AccountPageData, { page: "login" }> }) {
  const intl = useIntl();
  const signupHref = accountPath("/signup/", data.next, data.reason);
  return (
    <section className="panel auth-panel" aria-labelledby="login-title">
      <h1 id="login-title">
        <FormattedMessage id={data.reason === "like" ? "accounts.login.likeTitle" : "accounts.login.title"} />
      </h1>
      <p className="auth-panel__lead">
        <FormattedMessage id={data.reason === "like" ? "accounts.login.likeLead" : "accounts.login.lead"} />
      </p>
      <PostForm action="/login/">
        <FormProblemNotice problem={data.problem} />
        <input type="hidden" name="next" value={data.next} />
        {data.reason ? <input type="hidden" name="reason" value={data.reason} /> : null}
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
        <button type="submit" className="button button--primary">
          <FormattedMessage id="accounts.login.submit" />
        </button>
      </PostForm>
      <p className="auth-panel__switch">
        <FormattedMessage id="accounts.login.noAccount" values={{ link: (text) => <a href={signupHref}>{text}</a> }} />
      </p>
    </section>
  );
}

function SignupForm({ data }: { data: Extract<AccountPageData, { page: "signup" }> }) {
  const intl = useIntl();
  const problemText = useProblemText(data.problem);
  const loginHref = accountPath("/login/", data.next, data.reason);
  const field = (id: MessageId) => intl.formatMessage({ id });
  return (
    <section className="panel auth-panel" aria-labelledby="signup-title">
      <h1 id="signup-title">
        <FormattedMessage id={data.reason === "like" ? "likes.signUpToLike" : "accounts.signup.title"} />
      </h1>
      <p className="auth-panel__lead">
        <FormattedMessage id={data.reason === "like" ? "accounts.signup.likeLead" : "accounts.signup.lead"} />
      </p>
      <PostForm action="/signup/">
        <FormProblemNotice problem={data.problem} />
        <input type="hidden" name="next" value={data.next} />
        {data.reason ? <input type="hidden" name="reason" value={data.reason} /> : null}
        <TextField
          name="firstName"
          label={field("accounts.field.firstName")}
          defaultValue={data.values.firstName}
          error={problemText("firstName")}
          autoComplete="given-name"
          required
          maxLength={100}
        />
        <TextField
          name="lastName"
          label={field("accounts.field.lastName")}
          defaultValue={data.values.lastName}
          error={problemText("lastName")}
          autoComplete="family-name"
          maxLength={100}
        />
        <TextField
          name="publicDisplayName"
          label={field("accounts.field.publicDisplayName")}
          hint={field("accounts.field.publicDisplayNameHint")}
          defaultValue={data.values.publicDisplayName}
          error={problemText("publicDisplayName")}
          maxLength={100}
        />
        <TextField
          name="email"
          type="email"
          label={field("accounts.field.email")}
          defaultValue={data.values.email}
          error={problemText("email")}
          autoComplete="email"
          required
        />
        <TextField
          name="password"
          type="password"
          label={field("accounts.field.password")}
          hint={field("accounts.field.passwordHint")}
          error={problemText("password")}
          autoComplete="new-password"
          required
          minLength={10}
        />
        <button type="submit" className="button button--primary">
          <FormattedMessage id="accounts.signup.submit" />
        </button>
      </PostForm>
      <p className="auth-panel__switch">
        <FormattedMessage
          id="accounts.signup.haveAccount"
          values={{ link: (text) => <a href={loginHref}>{text}</a> }}
        />
      </p>
    </section>
  );
}

function LogoutForm({ name }: { name: string }) {
  return (
    <section className="panel auth-panel" aria-labelledby="logout-title">
      <h1 id="logout-title">
        <FormattedMessage id="accounts.logout.title" />
      </h1>
      <p className="auth-panel__lead">
        <FormattedMessage id="accounts.logout.lead" values={{ name }} />
      </p>
      <PostForm action="/logout">
        <button type="submit" className="button button--primary">
          <FormattedMessage id="accounts.logout.submit" />
        </button>
      </PostForm>
    </section>
  );
}

function SettingsForms({ data }: { data: Extract<AccountPageData, { page: "settings" }> }) {
  const intl = useIntl();
  const problemText = useProblemText(data.problem);
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
      <section className="panel" aria-labelledby="settings-profile">
        <h2 id="settings-profile">
          <FormattedMessage id="settings.profile" />
        </h2>
        <PostForm action="/settings/">
          {data.problem && !passwordProblem ? <FormProblemNotice problem={data.problem} /> : null}
          <TextField
            name="firstName"
            label={field("accounts.field.firstName")}
            defaultValue={data.profile.firstName}
            error={problemText("firstName")}
            autoComplete="given-name"
            required
            maxLength={100}
          />
          <TextField
            name="lastName"
            label={field("accounts.field.lastName")}
            defaultValue={data.profile.lastName}
            error={problemText("lastName")}
            autoComplete="family-name"
            maxLength={100}
          />
          <TextField
            name="publicDisplayName"
            label={field("accounts.field.publicDisplayName")}
            hint={field("accounts.field.publicDisplayNameHint")}
            defaultValue={data.profile.publicDisplayName}
            error={problemText("publicDisplayName")}
            maxLength={100}
          />
          <div className="field">
            <label htmlFor="field-language">
              <FormattedMessage id="accounts.field.language" />
            </label>
            <select id="field-language" name="language" defaultValue={data.profile.language}>
              <option value="">{field("accounts.field.languageDefault")}</option>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {field(`language.${locale}` as MessageId)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button--primary">
            <FormattedMessage id="settings.saveProfile" />
          </button>
        </PostForm>
      </section>
      <section className="panel" aria-labelledby="settings-password">
        <h2 id="settings-password">
          <FormattedMessage id="settings.password" />
        </h2>
        <PostForm action="/settings/password">
          {passwordProblem ? <FormProblemNotice problem={data.problem} /> : null}
          <TextField
            name="currentPassword"
            type="password"
            label={field("accounts.field.currentPassword")}
            error={problemText("currentPassword")}
            autoComplete="current-password"
            required
          />
          <TextField
            name="newPassword"
            type="password"
            label={field("accounts.field.newPassword")}
            hint={field("accounts.field.passwordHint")}
            error={problemText("password")}
            autoComplete="new-password"
            required
            minLength={10}
          />
          <button type="submit" className="button button--primary">
            <FormattedMessage id="settings.changePassword" />
          </button>
        </PostForm>
      </section>
    </div>
  );
}

function Profile({ data }: { data: Extract<AccountPageData, { page: "profile" }> }) {
  const intl = useIntl();
  return (
    <div className="profile">
      <header className="profile__header">
        <Avatar initials={data.owner.initials} color={data.owner.color} size={72} />
        <div>
          <h1>{data.owner.name}</h1>
          <p>
            <FormattedMessage id="profile.count" values={{ count: data.presentations.length }} />
          </p>
        </div>
      </header>
      <h2 className="home-section-title">
        <FormattedMessage id="profile.presentations" />
      </h2>
      {data.presentations.length > 0 ? (
        <CardList
          eager={FIRST_ROW_CARDS}
          cards={data.presentations}
          label={intl.formatMessage({ id: "profile.presentations" })}
        />
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
    <section className="panel auth-panel" aria-labelledby="segment-title">
      <h1 id="segment-title">
        <FormattedMessage id="accounts.segment.title" />
      </h1>
      <p className="auth-panel__lead">
        <FormattedMessage id="accounts.segment.lead" />
      </p>
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
        <button type="submit" className="button button--primary">
          <FormattedMessage id="accounts.segment.submit" />
        </button>
      </PostForm>
      <p className="auth-panel__switch">
        <FormattedMessage id="accounts.signup.haveAccount" values={{ link: (text) => <a href="/login/">{text}</a> }} />
      </p>
    </section>
  );
}
