import { FormattedMessage } from "react-intl";
import type { MessageId } from "../i18n/locales";
import { SiteLayout } from "./SiteLayout";

export interface ErrorPageData {
  status: number;
}

/** A real error page: says what happened in words, and offers a way on. */
export function ErrorPage({ data }: { data: ErrorPageData }) {
  const kind = data.status === 404 ? "notFound" : "server";
  const title: MessageId = `error.${kind}.title`;
  const body: MessageId = `error.${kind}.body`;
  return (
    <SiteLayout>
      <div className="error-page">
        <p className="error-page__status">{data.status}</p>
        <h1>
          <FormattedMessage id={title} />
        </h1>
        <p>
          <FormattedMessage id={body} />
        </p>
        <a className="button button--primary" href="/">
          <FormattedMessage id="error.goHome" />
        </a>
      </div>
    </SiteLayout>
  );
}
