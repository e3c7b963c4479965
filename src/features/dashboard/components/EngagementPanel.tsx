import { type ReactNode, useId } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "../../../i18n/intl";
import { MessageLabel } from "../../../ui/Form";
import { ENGAGEMENT_PERIODS } from "../engagement";
import type { ViewSourceRow } from "../repository";
import type { ManageData } from "../service";
import { ColumnHeads } from "./ColumnHeads";
import "./engagement.css";

/**
 * A table that may be wider than a phone scrolls sideways in its frame; the frame is a named region
 * the keyboard can reach and scroll (WCAG 2.1.1; axe scrollable-region-focusable), with visible focus.
 */
function TableFrame({ captionId, children }: { captionId: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
    <section className="engagement__table-frame" aria-labelledby={captionId} tabIndex={0}>
      {children}
    </section>
  );
}

/** The section's id (a link to the analytics lands here). */
export const ENGAGEMENT_SECTION = "engagement";

/** "12.3 s", "4 min 05 s": a time read at a glance. */
export function Duration({ ms }: { ms: number | null }) {
  const intl = useIntl();
  if (ms === null) return <FormattedMessage id="engagement.none" />;
  const seconds = ms / 1000;
  if (seconds < 60) {
    return (
      <FormattedMessage
        id="engagement.seconds"
        values={{ seconds: intl.formatNumber(seconds, { maximumFractionDigits: 1 }) }}
      />
    );
  }
  const whole = Math.round(seconds);
  return (
    <FormattedMessage
      id="engagement.minutes"
      values={{ minutes: Math.floor(whole / 60), seconds: String(whole % 60).padStart(2, "0") }}
    />
  );
}

/**
 * Issue 33 item 1: which steps held the viewers. For a chosen period and audience (everyone, the
 * public page, one view link): a drop-off chart (viewers who reached each step) with its table
 * equivalent (reached, share of those who started, median time per stay, arrivals by going back),
 * completion rate and median viewing time per visit; and, in words, what is measured and what
 * is not (item 6). A plain GET form chooses the period and audience: it works without JavaScript.
 */
export function EngagementPanel({
  action,
  engagement,
  links,
}: {
  action: string;
  engagement: ManageData["engagement"];
  links: { linkId: string; name: string }[];
}) {
  const intl = useIntl();
  const ids = useId();
  const { figures } = engagement;
  const top = Math.max(1, ...figures.steps.map((step) => step.reached));
  const percent = (n: number) =>
    figures.visits > 0 ? intl.formatNumber(n / figures.visits, { style: "percent", maximumFractionDigits: 0 }) : "—";
  return (
    <section className="panel engagement" id={ENGAGEMENT_SECTION} aria-labelledby="engagement-title">
      <h2 id="engagement-title">
        <FormattedMessage id="engagement.title" />
      </h2>
      <form method="get" action={`${action}#${ENGAGEMENT_SECTION}`} className="engagement__choice">
        <div className="field">
          <MessageLabel htmlFor="engagement-days" message="engagement.period" />
          <select id="engagement-days" name="days" defaultValue={String(engagement.days)}>
            {ENGAGEMENT_PERIODS.map((days) => (
              <option key={days} value={days}>
                {intl.formatMessage({ id: "engagement.lastDays" }, { days })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <MessageLabel htmlFor="engagement-audience" message="engagement.audience" />
          <select id="engagement-audience" name="audience" defaultValue={engagement.audience}>
            <option value="all">{intl.formatMessage({ id: "engagement.audienceAll" })}</option>
            <option value="public">{intl.formatMessage({ id: "engagement.audiencePublic" })}</option>
            {links.map((link, index) => (
              <option key={link.linkId} value={link.linkId}>
                {link.name || intl.formatMessage({ id: "engagement.unnamedLink" }, { number: index + 1 })}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          <FormattedMessage id="engagement.show" />
        </button>
      </form>

      <dl className="engagement__summary">
        <div>
          <dt>
            <FormattedMessage id="engagement.visits" />
          </dt>
          <dd data-figure="visits">
            <FormattedNumber value={figures.visits} />
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="engagement.completion" />
          </dt>
          <dd data-figure="completion">
            {figures.completionRate === null
              ? intl.formatMessage({ id: "engagement.none" })
              : intl.formatNumber(figures.completionRate, { style: "percent", maximumFractionDigits: 0 })}
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="engagement.medianVisit" />
          </dt>
          <dd data-figure="median-visit">
            <Duration ms={figures.medianVisitMs} />
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="engagement.downloads" />
          </dt>
          <dd data-figure="downloads">
            <FormattedNumber value={engagement.downloads} />
          </dd>
        </div>
      </dl>

      {figures.visits === 0 && figures.steps.every((step) => step.reached === 0) ? (
        <p>
          <FormattedMessage id="engagement.empty" />
        </p>
      ) : (
        <>
          {/* The chart, for the eye; the table below says the same for everyone. */}
          <div className="engagement__chart" aria-hidden="true">
            {figures.steps.map((step) => (
              <div key={step.step} className="engagement__row">
                <span className="engagement__label">{step.step}</span>
                <span className="engagement__track">
                  <span className="engagement__bar" style={{ width: `${(step.reached / top) * 100}%` }} />
                </span>
                <span className="engagement__count">{intl.formatNumber(step.reached)}</span>
              </div>
            ))}
          </div>
          <TableFrame captionId={`${ids}-steps`}>
            <table className="engagement__table">
              <caption id={`${ids}-steps`}>
                <FormattedMessage id="engagement.tableCaption" values={{ days: engagement.days }} />
              </caption>
              <ColumnHeads
                ids={[
                  "engagement.step",
                  "engagement.reached",
                  "engagement.share",
                  "engagement.medianStay",
                  "engagement.backs",
                ]}
              />
              <tbody>
                {figures.steps.map((step) => (
                  <tr key={step.step} data-step={step.step}>
                    <th scope="row">{step.step}</th>
                    <td data-figure="reached">{intl.formatNumber(step.reached)}</td>
                    <td>{percent(step.reached)}</td>
                    <td data-figure="median" data-ms={step.medianMs ?? ""}>
                      <Duration ms={step.medianMs} />
                    </td>
                    <td data-figure="backs">{intl.formatNumber(step.backs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
        </>
      )}
      <ViewSources sources={engagement.sources} days={engagement.days} />
      <p>
        <a
          className="button"
          href={`${action}analytics.csv?days=${engagement.days}&audience=${encodeURIComponent(engagement.audience)}`}
          download
        >
          <FormattedMessage id="engagement.csv" />
        </a>
      </p>
      <p className="field__hint engagement__privacy">
        <FormattedMessage id="engagement.privacy" />
      </p>
    </section>
  );
}

const SOURCE_LABELS = {
  direct: "engagement.source.direct",
  search: "engagement.source.search",
  podium: "engagement.source.podium",
  site: "engagement.source.site",
  embed: "engagement.source.embed",
  share: "engagement.source.share",
} as const;

/**
 * Issue 33 item 2: where views came from (a view counted from a referrer host, or direct), plays
 * in embeds by the embedding site, and share buttons used: a table, hosts only.
 */
function ViewSources({ sources, days }: { sources: ViewSourceRow[]; days: number }) {
  const intl = useIntl();
  const ids = useId();
  return (
    <>
      <h3 className="engagement__subtitle">
        <FormattedMessage id="engagement.sources" />
      </h3>
      {sources.length === 0 ? (
        <p>
          <FormattedMessage id="engagement.sourcesEmpty" />
        </p>
      ) : (
        <TableFrame captionId={`${ids}-sources`}>
          <table className="engagement__table engagement__sources">
            <caption id={`${ids}-sources`}>
              <FormattedMessage id="engagement.sourcesCaption" values={{ days }} />
            </caption>
            <ColumnHeads ids={["engagement.sourceKind", "engagement.sourceHost", "engagement.sourceCount"]} />
            <tbody>
              {sources.map((source) => (
                <tr key={`${source.kind} ${source.host}`} data-source={`${source.kind}:${source.host}`}>
                  <th scope="row">
                    <FormattedMessage id={SOURCE_LABELS[source.kind]} />
                  </th>
                  <td>{source.host || "—"}</td>
                  <td>{intl.formatNumber(source.n)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </>
  );
}
