import { type ReactNode, useId, useState } from "react";

/**
 * Static content that travels once (issue 11): the server renders the children, and a browser
 * that hydrates without them (the page's data left them out of the boot data) keeps the
 * element's server-rendered HTML as it is instead of rendering it again from data sent twice.
 * With children it renders them, in the browser too (tests, client-side renders).
 *
 * For content without state or handlers only (text, links, images): the browser adopts the HTML
 * and React never looks inside it. The id comes from `useId`, equal on the server and in the
 * browser because the trees match.
 */
export function ServerMarkup({
  className,
  children = null,
  html,
}: {
  className?: string;
  children?: ReactNode | null;
  /** The content as HTML the server already made (a kept drawing): the same element, filled with it. */
  html?: string;
}) {
  const id = useId();
  // Read once, while hydrating, before React commits anything to this part of the page.
  const [serverHtml] = useState(() =>
    children === null && typeof document !== "undefined" ? (document.getElementById(id)?.innerHTML ?? "") : "",
  );
  if (html !== undefined) {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: markup React rendered on this server, kept for reuse
    return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  if (children !== null) {
    return (
      <div id={id} className={className}>
        {children}
      </div>
    );
  }
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the page's own server-rendered markup, read back unchanged
  return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: serverHtml }} />;
}
