import type { ReactNode } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import type { MessageId } from "../i18n/locales";

/**
 * The form kit (issue 31, item 2): every server-posted form is written with these, so a field's
 * label, hint and error are wired for assistive technology in one place, and a form's messages and
 * buttons look the same everywhere. Plain HTML forms: they work before (and without) JavaScript.
 */

import { PostForm } from "./PostForm";

export { PostForm };

/** What a form's control needs to be tied to its field's hint and error. */
export interface FieldControl {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A labelled field: label, hint (`<id>-hint`) and error (`<id>-error`) around one control, which
 * `children` draws with the ids and states it is given. `hintAfter`: the hint follows the control
 * (a note on the format of what is typed there, read after it).
 */
export function Field({
  id,
  label,
  hint,
  hintAfter,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  hintAfter?: boolean;
  error?: ReactNode;
  children: (control: FieldControl) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const hintText = hint ? (
    <p id={`${id}-hint`} className="field__hint">
      {hint}
    </p>
  ) : null;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {hintAfter ? null : hintText}
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hintAfter ? hintText : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its hint and error tied to it (its id is `field-<name>` unless given). */
export function TextField({
  name,
  id = `field-${name}`,
  label,
  type = "text",
  defaultValue,
  error,
  hint,
  required,
  autoComplete,
  maxLength,
  minLength,
}: {
  name: string;
  id?: string;
  label: ReactNode;
  type?: "text" | "email" | "password";
  defaultValue?: string;
  error?: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  autoComplete?: string;
  maxLength?: number;
  minLength?: number;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(control) => (
        <input
          id={control.id}
          name={name}
          type={type}
          defaultValue={defaultValue}
          required={required}
          autoComplete={autoComplete}
          maxLength={maxLength}
          minLength={minLength}
          aria-invalid={control["aria-invalid"]}
          aria-describedby={control["aria-describedby"]}
        />
      )}
    </Field>
  );
}

/** A labelled text area, hint and error tied to it (`hintAfter`: see Field). */
export function TextAreaField({
  name,
  id,
  label,
  hint,
  hintAfter,
  error,
  defaultValue,
  maxLength,
  rows,
  spellCheck,
}: {
  name: string;
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  hintAfter?: boolean;
  error?: ReactNode;
  defaultValue?: string;
  maxLength?: number;
  rows?: number;
  spellCheck?: boolean;
}) {
  return (
    <Field id={id} label={label} hint={hint} hintAfter={hintAfter} error={error}>
      {(control) => (
        <textarea
          id={control.id}
          name={name}
          rows={rows}
          defaultValue={defaultValue}
          aria-invalid={control["aria-invalid"]}
          aria-describedby={control["aria-describedby"]}
          spellCheck={spellCheck}
          maxLength={maxLength}
        />
      )}
    </Field>
  );
}

/**
 * A text field a form lists as data (its words as message ids): a TextField, or a TextAreaField
 * when `multiline`. Forms whose fields differ only in these write them as a table (FieldList).
 */
export interface FieldSpec {
  name: string;
  id?: string;
  label: MessageId;
  hint?: MessageId;
  type?: "text" | "email" | "password";
  multiline?: boolean;
  required?: boolean;
  autoComplete?: string;
  maxLength?: number;
}

/** The fields of a table, in order, with their values and (`errorOf`) their errors. */
export function FieldList({
  fields,
  values,
  errorOf,
}: {
  fields: readonly FieldSpec[];
  values: Record<string, string | undefined>;
  errorOf?: (name: string) => string | null;
}) {
  const intl = useIntl();
  return (
    <>
      {fields.map(({ multiline, label, hint, ...field }) => {
        const common = {
          ...field,
          id: field.id ?? `field-${field.name}`,
          label: intl.formatMessage({ id: label }),
          hint: hint ? intl.formatMessage({ id: hint }) : undefined,
          defaultValue: values[field.name],
          error: errorOf?.(field.name),
        };
        return multiline ? <TextAreaField key={field.name} {...common} /> : <TextField key={field.name} {...common} />;
      })}
    </>
  );
}

/**
 * A labelled drop-down: its options are `children`, or `choices` ([value, message id] pairs, in
 * the order offered).
 */
export function SelectField({
  name,
  id,
  label,
  defaultValue,
  choices,
  children,
}: {
  name: string;
  id: string;
  label: ReactNode;
  defaultValue?: string;
  choices?: readonly (readonly [string, MessageId])[];
  children?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Field id={id} label={label}>
      {(control) => (
        <select id={control.id} name={name} defaultValue={defaultValue}>
          {children}
          {choices?.map(([value, message]) => (
            <option key={value} value={value}>
              {intl.formatMessage({ id: message })}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * A form's submit button: primary unless told otherwise. Its words: `message`, or `children`.
 * `pending`: the form is on its way (the button is disabled meanwhile, so it isn't sent twice).
 */
export function SubmitButton({
  children,
  message,
  variant = "primary",
  label,
  pending,
}: {
  children?: ReactNode;
  message?: MessageId;
  variant?: "primary" | "plain" | "danger" | "danger-quiet";
  /** An accessible name more precise than the visible text (which of many "Remove" buttons). */
  label?: string;
  pending?: boolean;
}) {
  return (
    <button
      type="submit"
      className={variant === "plain" ? "button" : `button button--${variant}`}
      aria-label={label}
      disabled={pending}
    >
      {message ? <FormattedMessage id={message} /> : children}
    </button>
  );
}

/** A form that is one button (revoke, remove, hide…): posts to `action` with the CSRF token. */
export function ButtonForm({
  action,
  className = "inline-form",
  ...button
}: {
  action: string;
  className?: string;
  children?: ReactNode;
  message?: MessageId;
  variant?: "primary" | "plain" | "danger" | "danger-quiet";
  label?: string;
}) {
  return (
    <PostForm action={action} className={className}>
      <SubmitButton {...button} />
    </PostForm>
  );
}

/** A message at the top of a form: what went wrong, or what was saved. */
export function FormNotice({ kind, children }: { kind: "error" | "success"; children: ReactNode }) {
  return (
    <div className={`notice notice--${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** A translated message with its values, as the server hands a form page its problem or result. */
export interface FormMessage {
  messageId: string;
  values?: Record<string, number | string>;
}

/** A form's problem: the field it concerns, and what to say. */
export interface FormProblem extends FormMessage {
  field: string;
}

/** The error summary at the top of a form (or its success message); nothing when there's none. */
export function FormMessageNotice({ kind, message }: { kind: "error" | "success"; message: FormMessage | null }) {
  if (!message) return null;
  return (
    <FormNotice kind={kind}>
      <FormattedMessage id={message.messageId as MessageId} values={message.values} />
    </FormNotice>
  );
}

/** The error text a field shows: the problem's message when the problem is that field's, else null. */
export function useFieldError(problem: FormProblem | null): (field: string) => string | null {
  const intl = useIntl();
  return (field: string) =>
    problem && problem.field === field
      ? intl.formatMessage({ id: problem.messageId as MessageId }, problem.values)
      : null;
}

/**
 * A page that is one short form (log in, sign up, log out, confirm): its heading, the lead that
 * says what happens, the form, and anything after it.
 */
export function FormPanel({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: ReactNode;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="panel auth-panel" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p className="auth-panel__lead">{lead}</p>
      {children}
    </section>
  );
}

/** A titled section of a longer page (settings, a presentation's management), with its forms. */
export function FormSection({
  id,
  title,
  lead,
  className,
  sectionId,
  children,
}: {
  id: string;
  title: ReactNode;
  lead?: ReactNode;
  className?: string;
  /** The section's own id, when a link leads to it. */
  sectionId?: string;
  children: ReactNode;
}) {
  return (
    <section className={className ?? "panel"} id={sectionId} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lead ? <p className="dashboard__lead">{lead}</p> : null}
      {children}
    </section>
  );
}

/** A checkbox with its words in its label, and (`hint`, with its id) a note under it tied to it. */
export function CheckboxField({
  name,
  label,
  hint,
  hintId,
  defaultChecked,
}: {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  hintId?: string;
  defaultChecked?: boolean;
}) {
  return (
    <div className="field">
      <label>
        <input
          type="checkbox"
          name={name}
          value="on"
          defaultChecked={defaultChecked}
          aria-describedby={hint ? hintId : undefined}
        />{" "}
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A control's label, its words one message: for the controls the kit's Field doesn't draw (live, file, choice). */
export function MessageLabel({
  htmlFor,
  message,
  className,
}: {
  htmlFor: string;
  message: MessageId;
  className?: string;
}) {
  return (
    <label htmlFor={htmlFor} className={className}>
      <FormattedMessage id={message} />
    </label>
  );
}
