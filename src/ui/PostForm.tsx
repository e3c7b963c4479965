import type { ReactNode } from "react";
import { CsrfField } from "./session";

/**
 * The form kit's form (ui/Form.tsx re-exports it), on its own so that the account menu on every
 * page carries it without the rest of the kit.
 */
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
