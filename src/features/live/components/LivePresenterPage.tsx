import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import { LiveQuestionMeta } from "../../../ui/LiveQuestionMeta";
import { useSession } from "../../../ui/session";
import { PresenterPage } from "../../presentation/presenter/components/PresenterPage";
import type { PresenterPageData } from "../../presentation/presenter/page-data";
import type { PresenterLiveData } from "../page-data";
import { type LiveEvent, type LiveReaction, livePath, sortedQuestions } from "../rules";
import { REACTION_LABELS } from "./LivePage";
import { livePost, useLiveState } from "./live-client";
import { ReactionIcon } from "./ReactionIcon";
import "./live.css";

/** Issue 35 item 1: the presenter view with its live session panel. */
export interface LivePresenterPageData {
  presenter: PresenterPageData;
  /** Go live is offered (the deck's own presenter view, to its owner or an editor). */
  canGoLive: boolean;
  /** The session running when the page was rendered. */
  live: PresenterLiveData | null;
}

/** How long a reaction burst stays on the presenter's screen. */
const BURST_MS = 4000;

export function LivePresenterPage({ data }: { data: LivePresenterPageData }) {
  return (
    <PresenterPage
      data={data.presenter}
      live={
        data.canGoLive
          ? (step, ready) => <LivePanel oid={data.presenter.oid} initial={data.live} step={step} ready={ready} />
          : undefined
      }
    />
  );
}

function LivePanel({
  oid,
  initial,
  step,
  ready,
}: {
  oid: string;
  initial: PresenterLiveData | null;
  step: number;
  ready: boolean;
}) {
  const { csrfToken } = useSession();
  const [live, setLive] = useState(initial);
  const [error, setError] = useState(false);
  const [starting, setStarting] = useState(false);

  const goLive = async () => {
    setStarting(true);
    const result = await livePost(`/p/presenter/${oid}/live`, { step }, csrfToken);
    setStarting(false);
    setError(!result.ok);
    if (result.ok) setLive(result.body as PresenterLiveData);
  };

  return (
    <section className="live-panel" aria-labelledby="live-panel-heading">
      {live ? (
        <LiveSession key={live.code} live={live} step={step} />
      ) : (
        <>
          <PanelHeading />
          <div className="live-panel__start">
            <p className="live-panel__intro">
              <FormattedMessage id="live.panel.intro" />
            </p>
            <button
              type="button"
              className="presenter__button presenter__button--primary"
              onClick={() => void goLive()}
              disabled={!ready || starting}
            >
              <FormattedMessage id={starting ? "live.panel.starting" : "live.panel.goLive"} />
            </button>
            {error ? (
              <p className="live-panel__error" role="alert">
                <FormattedMessage id="live.error.generic" />
              </p>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

/** The panel's heading; a running session puts End session on its line (in view above any questions). */
function PanelHeading() {
  return (
    <h2 id="live-panel-heading" className="live-panel__heading">
      <FormattedMessage id="live.panel.heading" />
    </h2>
  );
}

type Burst = { id: number; reaction: LiveReaction; count: number };

function LiveSession({ live, step }: { live: PresenterLiveData; step: number }) {
  const intl = useIntl();
  const { csrfToken } = useSession();
  const base = livePath(live.code);
  const [bursts, setBursts] = useState<Burst[]>([]);
  const burstId = useRef(0);
  const onReactions = (counts: Extract<LiveEvent, { type: "reactions" }>["counts"]) => {
    const added: Burst[] = [];
    for (const [reaction, count] of Object.entries(counts)) {
      if (count) added.push({ id: ++burstId.current, reaction: reaction as LiveReaction, count });
    }
    setBursts((current) => [...current, ...added].slice(-12));
    const ids = new Set(added.map((burst) => burst.id));
    window.setTimeout(() => setBursts((current) => current.filter((burst) => !ids.has(burst.id))), BURST_MS);
  };
  const { state } = useLiveState(`${base}/events?as=presenter`, live.state, onReactions);
  const [large, setLarge] = useState(false);
  const [failed, setFailed] = useState(false);

  // The presenter's step goes to every follower (the step shown here, moved by keys, buttons or the
  // audience window). From the step shown when the panel opened: a reloaded presenter view doesn't
  // pull the room back to its first slide before the presenter moves.
  const sentStep = useRef(step);
  useEffect(() => {
    if (state.ended || sentStep.current === step) return;
    sentStep.current = step;
    void livePost(`${base}/step`, { step }, csrfToken).then((result) => setFailed(!result.ok));
  }, [base, csrfToken, state.ended, step]);

  const call = async (path: string, body: unknown) => {
    const result = await livePost(`${base}${path}`, body, csrfToken);
    setFailed(!result.ok);
  };

  if (state.ended) {
    return (
      <>
        <PanelHeading />
        <p className="live-panel__ended" role="status">
          <FormattedMessage id="live.panel.ended" />
        </p>
      </>
    );
  }
  const questions = sortedQuestions(state.questions, true);
  const qr = (
    <div
      className="live-panel__qr"
      role="img"
      aria-label={intl.formatMessage({ id: "live.panel.qr" }, { url: live.joinUrl })}
      // Drawn on the server by `qrcode` from the join address (no user input in it).
      // biome-ignore lint/security/noDangerouslySetInnerHtml: server-drawn SVG of our own address
      dangerouslySetInnerHTML={{ __html: live.qrSvg }}
    />
  );
  return (
    <div className="live-panel__session" data-live-code={live.code}>
      <div className="live-panel__head">
        <PanelHeading />
        <div className="live-panel__end">
          {failed ? (
            <p className="live-panel__error" role="alert">
              <FormattedMessage id="live.error.generic" />
            </p>
          ) : null}
          <button type="button" className="presenter__button" onClick={() => void call("/end", {})}>
            <FormattedMessage id="live.panel.end" />
          </button>
        </div>
      </div>
      <div className="live-panel__join">
        {qr}
        <div className="live-panel__join-text">
          <p className="live-panel__label">
            <FormattedMessage id="live.panel.joinAt" />
          </p>
          <p className="live-panel__url">
            <a href={live.joinUrl} target="_blank" rel="noopener">
              {live.joinUrl}
            </a>
          </p>
          <p className="live-panel__label">
            <FormattedMessage id="live.panel.codeLabel" />
          </p>
          <p className="live-panel__code" data-testid="live-code">
            {live.spacedCode}
          </p>
          <button type="button" className="presenter__button presenter__button--small" onClick={() => setLarge(true)}>
            <FormattedMessage id="live.panel.showLarge" />
          </button>
        </div>
      </div>

      <div className="live-panel__reactions">
        <h3 className="presenter__label">
          <FormattedMessage id="live.panel.reactions" />
        </h3>
        <ul className="live-panel__bursts chip-row" aria-live="polite">
          {bursts.map((burst) => (
            <li key={burst.id} className="live-burst" data-reaction={burst.reaction}>
              <ReactionIcon reaction={burst.reaction} size={22} />
              <span className="live-burst__count">
                {intl.formatMessage({ id: REACTION_LABELS[burst.reaction] })} ×{burst.count}
              </span>
            </li>
          ))}
        </ul>
      </div>

      <div className="live-panel__questions">
        <div className="live-panel__questions-head">
          <h3 className="presenter__label">
            <FormattedMessage id="live.questions.heading" />
          </h3>
          <label className="live-panel__toggle">
            <input
              type="checkbox"
              checked={state.questionsEnabled}
              onChange={(event) => void call("/settings", { questionsEnabled: event.target.checked })}
            />
            <FormattedMessage id="live.panel.takeQuestions" />
          </label>
        </div>
        {questions.length === 0 ? (
          <p className="presenter__empty">
            <FormattedMessage id="live.questions.none" />
          </p>
        ) : (
          <ol className="live-panel__list">
            {questions.map((question) => (
              <li
                key={question.id}
                className={`live-panel__question${question.hidden ? " live-panel__question--hidden" : ""}`}
                data-question-id={question.id}
              >
                <p className="live-panel__question-text">{question.text}</p>
                <LiveQuestionMeta
                  question={question}
                  className="live-panel__question-meta"
                  tagClassName="live-panel__tag"
                />
                <div className="live-panel__question-actions">
                  <button
                    type="button"
                    className="presenter__button presenter__button--small"
                    onClick={() => void call(`/questions/${question.id}`, { answered: !question.answered })}
                  >
                    <FormattedMessage
                      id={question.answered ? "live.panel.markUnanswered" : "live.panel.markAnswered"}
                    />
                  </button>
                  <button
                    type="button"
                    className="presenter__button presenter__button--small"
                    onClick={() => void call(`/questions/${question.id}`, { hidden: !question.hidden })}
                  >
                    <FormattedMessage id={question.hidden ? "live.panel.show" : "live.panel.hide"} />
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>

      {large ? (
        <div
          className="live-large"
          role="dialog"
          aria-modal="true"
          aria-labelledby="live-large-heading"
          onKeyDown={(event) => {
            if (event.key === "Escape") setLarge(false);
          }}
        >
          <h2 id="live-large-heading" className="live-large__heading">
            <FormattedMessage id="live.panel.joinAt" /> <span className="live-large__url">{live.joinUrl}</span>
          </h2>
          <p className="live-large__code">{live.spacedCode}</p>
          {qr}
          <button
            type="button"
            className="presenter__button presenter__button--primary"
            // biome-ignore lint/a11y/noAutofocus: the dialog's one control takes focus as it opens
            autoFocus
            onClick={() => setLarge(false)}
          >
            <FormattedMessage id="live.panel.closeLarge" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
