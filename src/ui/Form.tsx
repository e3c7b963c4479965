import type { ReactNode } from "react";
import { CsrfField } from "./session";

/** A form that posts to our server with the CSRF token (works without JavaScript). */
export function PostForm({
  action,
  children,
  className,
  encType,
}: {
  action: string;
  children: ReactNode;
  className?: string;
  encType?: "multipart/form-data";
}) {
  return (
    <form method="post" action={action} className={className ?? "form"} encType={encType}>
      <CsrfField />
      {children}
    </form>
  );
}

/** A labelled input with its hint and error tied to it for assistive technology. */
export function TextField({
  name,
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
  label: string;
  type?: "text" | "email" | "password";
  defaultValue?: string;
  error?: string | null;
  hint?: string;
  required?: boolean;
  autoComplete?: string;
  maxLength?: number;
  minLength?: number;
}) {
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        required={required}
        autoComplete={autoComplete}
        maxLength={maxLength}
        minLength={minLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
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
