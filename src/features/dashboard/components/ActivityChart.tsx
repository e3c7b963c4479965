import { type PointerEvent, useEffect, useRef, useState } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "../../../i18n/intl";
import { MANAGE_SECTIONS } from "../paths";
import type { DailyActivity, PresentationActivity } from "../repository";
import { ColumnHeads } from "./ColumnHeads";
import "./activity-chart.css";

/** The chart's width before the browser measures its box (server render and first paint). */
const DEFAULT_WIDTH = 720;
const HEIGHT = 260;
/** Room around the plot: scale numbers left (views) and right (likes), their titles above, dates below. */
const MARGIN = { top: 36, right: 44, bottom: 32, left: 44 };
/** Grid lines above the baseline; both scales tick on them, so they share the lines. */
const TICK_COUNT = 4;
/** The least room one date label needs, so labels never overlap on a narrow screen. */
const MIN_LABEL_SPACING = 64;
/** Days between date labels, the first that leaves enough room (a week keeps the weekday steady). */
const LABEL_STEPS = [1, 2, 7, 14] as const;
/** Widest bar, so a wide screen still reads as days and not as a wall. */
const MAX_BAR_WIDTH = 22;

/** The top of a scale: a round number of TICK_COUNT equal steps (1, 2 or 5 × 10ⁿ) at or above max. */
export function scaleTop(max: number): number {
  if (max <= TICK_COUNT) return TICK_COUNT;
  const rough = max / TICK_COUNT;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  return step * TICK_COUNT;
}

/** Midnight UTC of a YYYY-MM-DD day (fixed by the page data, so server and browser agree). */
function dateOf(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** A bar from the baseline up to y, its top corners rounded. */
function barPath(x: number, y: number, width: number, baseline: number): string {
  const radius = Math.min(4, width / 2, baseline - y);
  return `M${x},${baseline}V${y + radius}Q${x},${y} ${x + radius},${y}H${x + width - radius}Q${x + width},${y} ${x + width},${y + radius}V${baseline}Z`;
}

/**
 * Views and likes per day (product brief, Analytics): views as bars on the left scale, likes
 * as a line with markers on the right scale (shapes, not only colours, tell them apart), a
 * legend with the totals, and the same numbers as a table for screen readers and anyone who
 * prefers one. Drawn from the page data's days alone: the server and the browser render the
 * same chart, then the browser redraws it at its real width.
 */
export function ActivityChart({ activity }: { activity: PresentationActivity }) {
  const intl = useIntl();
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const [active, setActive] = useState<number | null>(null);

  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const { days, totals } = activity;
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return null;

  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const baseline = MARGIN.top + plotHeight;
  const slot = plotWidth / days.length;
  const barWidth = Math.max(2, Math.min(MAX_BAR_WIDTH, slot * 0.62));
  const viewsTop = scaleTop(Math.max(...days.map((d) => d.views)));
  const likesTop = scaleTop(Math.max(...days.map((d) => d.likes)));
  const centerOf = (index: number) => MARGIN.left + slot * (index + 0.5);
  const yOf = (value: number, top: number) => baseline - (plotHeight * value) / top;
  const labelStep = LABEL_STEPS.find((step) => step * slot >= MIN_LABEL_SPACING) ?? days.length;
  const ticks = Array.from({ length: TICK_COUNT + 1 }, (_, i) => i);
  const likesPoints = days.map((d, i) => `${centerOf(i).toFixed(1)},${yOf(d.likes, likesTop).toFixed(1)}`).join(" ");

  const shortDate = (day: string) => intl.formatDate(dateOf(day), { month: "short", day: "numeric", timeZone: "UTC" });
  const windowDates = { first: shortDate(first.day), last: shortDate(last.day) };
  const compact = (value: number) => intl.formatNumber(value, { notation: "compact" });

  const pointAt = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - box.left) * width) / box.width;
    const index = Math.floor((x - MARGIN.left) / slot);
    setActive(index >= 0 && index < days.length ? index : null);
  };
  const activeDay: DailyActivity | null = active === null ? null : (days[active] ?? null);

  return (
    <section className="panel activity" id={MANAGE_SECTIONS.activity} aria-labelledby="activity-title">
      <div className="activity__head">
        <div>
          <h2 id="activity-title">
            <FormattedMessage id="dashboard.activity.title" values={{ days: days.length }} />
          </h2>
          <p className="dashboard__lead">
            <FormattedMessage id="dashboard.activity.range" values={windowDates} />
          </p>
        </div>
        <ul className="activity__legend">
          <li className="activity__stat">
            <span className="activity__stat-label">
              <svg className="activity__swatch" width="18" height="14" aria-hidden="true" focusable="false">
                <rect className="activity__bar" x="4" y="1" width="10" height="13" rx="2" />
              </svg>
              <FormattedMessage id="dashboard.activity.views" />
            </span>
            <span className="activity__stat-value">
              <FormattedNumber value={totals.views} />
            </span>
          </li>
          <li className="activity__stat">
            <span className="activity__stat-label">
              <svg className="activity__swatch" width="18" height="14" aria-hidden="true" focusable="false">
                <line className="activity__line" x1="0" y1="7" x2="18" y2="7" />
                <circle className="activity__marker" cx="9" cy="7" r="3.5" />
              </svg>
              <FormattedMessage id="dashboard.activity.likes" />
            </span>
            <span className="activity__stat-value">
              <FormattedNumber value={totals.likes} />
            </span>
          </li>
        </ul>
      </div>

      <div className="activity__frame" ref={frame}>
        <svg
          className="activity__chart"
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-label={intl.formatMessage(
            { id: "dashboard.activity.chartLabel" },
            { ...windowDates, views: totals.views, likes: totals.likes },
          )}
          onPointerMove={pointAt}
          onPointerLeave={() => setActive(null)}
        >
          <text className="activity__scale-title activity__scale-title--views" x={0} y={14}>
            {intl.formatMessage({ id: "dashboard.activity.views" })}
          </text>
          <text className="activity__scale-title activity__scale-title--likes" x={width} y={14} textAnchor="end">
            {intl.formatMessage({ id: "dashboard.activity.likes" })}
          </text>
          {active !== null ? (
            <rect
              className="activity__highlight"
              x={MARGIN.left + slot * active}
              y={MARGIN.top}
              width={slot}
              height={plotHeight}
            />
          ) : null}
          {ticks.map((tick) => {
            const y = baseline - (plotHeight * tick) / TICK_COUNT;
            return (
              <g key={tick}>
                <line
                  className={tick === 0 ? "activity__baseline" : "activity__grid"}
                  x1={MARGIN.left}
                  x2={width - MARGIN.right}
                  y1={y}
                  y2={y}
                />
                <text className="activity__tick" x={MARGIN.left - 8} y={y} textAnchor="end" dominantBaseline="middle">
                  {compact((viewsTop * tick) / TICK_COUNT)}
                </text>
                <text
                  className="activity__tick"
                  x={width - MARGIN.right + 8}
                  y={y}
                  textAnchor="start"
                  dominantBaseline="middle"
                >
                  {compact((likesTop * tick) / TICK_COUNT)}
                </text>
              </g>
            );
          })}
          {days.map((d, i) =>
            d.views > 0 ? (
              <path
                key={d.day}
                className={i === active ? "activity__bar activity__bar--active" : "activity__bar"}
                d={barPath(centerOf(i) - barWidth / 2, yOf(d.views, viewsTop), barWidth, baseline)}
              />
            ) : null,
          )}
          {totals.likes > 0 ? (
            <>
              <polyline className="activity__line-halo" points={likesPoints} />
              <polyline className="activity__line" points={likesPoints} />
            </>
          ) : null}
          {days.map((d, i) =>
            d.likes > 0 || i === active ? (
              <circle
                key={d.day}
                className="activity__marker"
                cx={centerOf(i)}
                cy={yOf(d.likes, likesTop)}
                r={i === active ? 5 : 3.5}
              />
            ) : null,
          )}
          {days.map((d, i) =>
            (days.length - 1 - i) % labelStep === 0 ? (
              <text key={d.day} className="activity__tick" x={centerOf(i)} y={baseline + 20} textAnchor="middle">
                {shortDate(d.day)}
              </text>
            ) : null,
          )}
        </svg>
        {activeDay && active !== null ? (
          <div
            className="activity__tooltip"
            aria-hidden="true"
            style={{
              left: `${(centerOf(active) / width) * 100}%`,
              transform: `translateX(${active < days.length / 2 ? "12px" : "calc(-100% - 12px)"})`,
            }}
          >
            <strong>
              {intl.formatDate(dateOf(activeDay.day), {
                weekday: "short",
                month: "short",
                day: "numeric",
                timeZone: "UTC",
              })}
            </strong>
            <span className="activity__tooltip-views">
              {intl.formatMessage({ id: "presentation.views" }, { count: activeDay.views })}
            </span>
            <span className="activity__tooltip-likes">
              {intl.formatMessage({ id: "presentation.likes" }, { count: activeDay.likes })}
            </span>
          </div>
        ) : null}
        {totals.views === 0 && totals.likes === 0 ? (
          <p className="activity__empty">
            <span>
              <FormattedMessage id="dashboard.activity.empty" />
            </span>
          </p>
        ) : null}
      </div>

      <details className="activity__details">
        <summary>
          <FormattedMessage id="dashboard.activity.showTable" />
        </summary>
        <table className="activity__table">
          <caption>
            <FormattedMessage id="dashboard.activity.tableCaption" />
          </caption>
          <ColumnHeads ids={["dashboard.activity.day", "dashboard.activity.views", "dashboard.activity.likes"]} />
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{intl.formatDate(dateOf(d.day), { dateStyle: "medium", timeZone: "UTC" })}</th>
                <td>
                  <FormattedNumber value={d.views} />
                </td>
                <td>
                  <FormattedNumber value={d.likes} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">
                <FormattedMessage id="dashboard.activity.total" />
              </th>
              <td>
                <FormattedNumber value={totals.views} />
              </td>
              <td>
                <FormattedNumber value={totals.likes} />
              </td>
            </tr>
          </tfoot>
        </table>
      </details>
    </section>
  );
}
