import type { MessageId } from "../i18n/locales";
import { EmbedUnavailable } from "./EmbedUnavailable";
import { LinkButton } from "./LinkButton";
import { LinkGate, type LinkGateData } from "./LinkGate";
import { PageIntro } from "./PageIntro";
import { SiteLayout } from "./SiteLayout";

/** A more precise explanation than the status alone gives (error.{reason} in the catalogue). */
export type ErrorReason = "badRequest.characters" | "badRequest.form" | "badRequest.conflict";

export interface ErrorPageData {
  status: number;
  reason?: ErrorReason | null;
  /** Issue 12: shown inside another site's frame (an embed whose presentation isn't available). */
  frame?: boolean;
  /** Issue 33: a closed view link: it says why, or asks for the link's passcode. */
  linkGate?: LinkGateData;
}

/** A real error page: says what happened in words, and offers a way on. */
export function ErrorPage({ data }: { data: ErrorPageData }) {
  if (data.frame) return <EmbedUnavailable />;
  if (data.linkGate) {
    return (
      <SiteLayout>
        <LinkGate gate={data.linkGate} />
      </SiteLayout>
    );
  }
  const kind = errorKind(data.status);
  const title: MessageId = `error.${kind}.title`;
  const body: MessageId = data.reason ? `error.${data.reason}` : `error.${kind}.body`;
  return (
    <SiteLayout>
      <PageIntro
        className="error-page"
        title={title}
        lead={body}
        before={<p className="error-page__status">{data.status}</p>}
      >
        <LinkButton href="/" message="error.goHome" variant="primary" />
      </PageIntro>
    </SiteLayout>
  );
}

function errorKind(status: number): "notFound" | "tooManyRequests" | "badRequest" | "unavailable" | "server" {
  if (status === 404) return "notFound";
  if (status === 429) return "tooManyRequests";
  if (status === 503) return "unavailable";
  if (status >= 400 && status < 500) return "badRequest";
  return "server";
}
