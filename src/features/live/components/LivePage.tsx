import { type FormEvent, useCallback, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { TextField } from "../../../ui/Form";
import { useSession } from "../../../ui/session";
import { Player } from "../../presentation/components/player/Player";
import type { FollowPageData, LiveEndedPageData, LiveJoinPageData } from "../page-data";
import {
  LIVE_CODE_LENGTH,
  LIVE_JOIN_PATH,
  LIVE_QUESTION_MAX_LENGTH,
  type LiveReaction,
  livePath,
  sortedQuestions,
} from "../rules";
import { livePost, useLiveState } from "./live-client";
import { ReactionIcon } from "./ReactionIcon";
import "../../../ui/styles/base.css";
import "../../presentation/components/fullscreen-page.css";
import "./live.css";

export interface LivePageData {
  follow: FollowPageData | null;
  ended: LiveEndedPageData | null;
  /** `/live/`: the form a code is typed into. */
  join?: LiveJoinPageData | null;
}

/** The accessible names of the reactions (the emoji themselves are decoration). */
export const REACTION_LABELS: Record<LiveReaction, MessageId> = {
  applause: "live.react.applause",
  heart: "live.react.heart",
  laugh: "live.react.laugh",
  wow: "live.react.wow",
  thumbsUp: "live.react.thumbsUp",
};

/** Issue 35 item 2: `/live/{code}`, the follow page, or the notice of an ended (or unknown) code. */
export function LivePage({ data }: { data: LivePageData }) {
  if (data.follow) return <FollowView data={data.follow} />;
  if (data.join) {
    return (
      <main className="live-ended live-join">
        <h1 className="live-ended__heading">
          <FormattedMessage id="live.join.heading" />
        </h1>
        <p>
          <FormattedMessage id="live.join.lead" />
        </p>
        <JoinForm typed={data.join.typed} invalid={data.join.invalid} />
      </main>
    );
  }
  return <EndedNotice data={data.ended ?? { deckPath: null, title: null }} />;
}

/**
 * Issue 35 item 2: the code the presenter shows, typed in (spaces, dashes and small letters are
 * fine). A plain GET form: it works before and without scripts.
 */
function JoinForm({ typed = "", invalid = false }: { typed?: string; invalid?: boolean }) {
  return (
    <form className="live-join__form" method="get" action={LIVE_JOIN_PATH}>
      <TextField
        name="code"
        id="live-join-code"
        label={<FormattedMessage id="live.join.label" />}
        hint={<FormattedMessage id="live.join.hint" values={{ length: LIVE_CODE_LENGTH }} />}
        error={invalid ? <FormattedMessage id="live.join.invalid" values={{ length: LIVE_CODE_LENGTH }} /> : undefined}
        defaultValue={typed}
        autoComplete="off"
        maxLength={32}
        required
      />
      <button type="submit" className="button button--primary">
        <FormattedMessage id="live.join.submit" />
      </button>
    </form>
  );
}

function EndedNotice({ data }: { data: LiveEndedPageData }) {
  return (
    <main className="live-ended">
      <h1 className="live-ended__heading">
        <FormattedMessage id="live.ended.heading" />
      </h1>
      <p>
        <FormattedMessage id="live.ended.body" />
      </p>
      {data.deckPath && data.title ? (
        <p>
          <a className="button button--primary" href={data.deckPath}>
            <FormattedMessage id="live.ended.openDeck" values={{ title: data.title }} />
          </a>
        </p>
      ) : null}
      <h2 className="live-join__again">
        <FormattedMessage id="live.join.again" />
      </h2>
      <JoinForm />
    </main>
  );
}

type Notice = { id: MessageId; values?: Record<string, string | number>; tone: "ok" | "error" } | null;

function errorNotice(status: number, message: string | null): Notice {
  if (status === 429) return { id: "live.error.tooMany", tone: "error" };
  if (status === 400 && message?.startsWith("A question can be at most")) {
    return { id: "live.error.tooLong", values: { max: LIVE_QUESTION_MAX_LENGTH }, tone: "error" };
  }
  if (status === 400) return { id: "live.error.empty", tone: "error" };
  if (status === 409) return { id: "live.questions.off", tone: "error" };
  return { id: "live.error.generic", tone: "error" };
}

function FollowView({ data }: { data: FollowPageData }) {
  const intl = useIntl();
  const { csrfToken } = useSession();
  const base = livePath(data.code);
  const { state, status } = useLiveState(`${base}/events`, data.state);
  // Following: the player moves with the presenter. Browsing: the viewer moved on their own.
  const [following, setFollowing] = useState(true);
  const [returned, setReturned] = useState(0);
  // A new object on each presenter move (or Return) makes the player move; none once browsing or ended.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `returned` asks for the same step again
  const follow = useMemo(
    () => (following && !state.ended ? { step: state.step + 1 } : null),
    [following, state.ended, state.step, returned],
  );
  const onStepChange = useCallback(
    (step: number) => {
      if (step !== state.step) setFollowing(false);
    },
    [state.step],
  );
  const returnToPresenter = () => {
    setFollowing(true);
    setReturned((n) => n + 1);
  };
  const browsing = !following;

  const [notice, setNotice] = useState<Notice>(null);
  const [question, setQuestion] = useState("");
  const [sending, setSending] = useState(false);
  const [voted, setVoted] = useState<ReadonlySet<string>>(new Set());

  const sendReaction = async (reaction: LiveReaction) => {
    const result = await livePost(`${base}/reactions`, { reaction }, csrfToken);
    setNotice(result.ok ? { id: "live.react.sent", tone: "ok" } : errorNotice(result.status, result.message));
  };
  const ask = async (event: FormEvent) => {
    event.preventDefault();
    if (question.trim() === "") {
      setNotice({ id: "live.error.empty", tone: "error" });
      return;
    }
    setSending(true);
    const result = await livePost(`${base}/questions`, { text: question }, csrfToken);
    setSending(false);
    if (result.ok) {
      setQuestion("");
      setNotice({ id: "live.questions.sent", tone: "ok" });
    } else setNotice(errorNotice(result.status, result.message));
  };
  const vote = async (id: string) => {
    const result = await livePost(`${base}/questions/${id}/vote`, {}, csrfToken);
    if (result.ok) setVoted((current) => new Set([...current, id]));
    else setNotice(errorNotice(result.status, result.message));
  };
  const questions = sortedQuestions(state.questions, false);

  return (
    <div
      className="live-follow"
      data-live-step={state.step + 1}
      data-live-ended={state.ended ? "true" : "false"}
      style={{ ["--live-page-aspect" as string]: data.pageAspect }}
    >
      <header className="live-follow__bar">
        <h1 className="live-follow__title">{data.title}</h1>
        <p className="live-follow__status" role="status">
          {state.ended ? (
            <FormattedMessage id="live.endedNotice" />
          ) : status === "reconnecting" ? (
            <FormattedMessage id="live.reconnecting" />
          ) : browsing ? (
            <FormattedMessage id="live.browsing" />
          ) : (
            <FormattedMessage id="live.following" />
          )}
        </p>
        {!state.ended && browsing ? (
          <button type="button" className="button button--primary live-follow__return" onClick={returnToPresenter}>
            <FormattedMessage id="live.returnToPresenter" />
          </button>
        ) : null}
      </header>
      <main className="live-follow__player fullscreen-page__player">
        <Player
          oid={data.oid}
          title={data.title}
          owner={data.owner}
          lastModified={data.lastModified}
          schemaVersion={data.schemaVersion}
          documentUrl={data.documentUrl}
          previewUrl={data.previewUrl}
          fallbackPreviewUrl={null}
          stepCount={data.stepCount}
          pageAspect={data.pageAspect}
          posterAspect={data.posterAspect}
          // The first `follow` starts it at the presenter's step (autoplay would load it twice).
          autoplay={false}
          viewOnPodiumUrl={null}
          learnMoreUrl={null}
          titleIsHeading={false}
          posterMeta
          presenterUrl={null}
          startStep={data.state.step + 1}
          follow={follow}
          onStepChange={onStepChange}
        />
      </main>
      {state.ended ? null : (
        <section className="live-follow__panel" aria-labelledby="live-panel-heading">
          <h2 id="live-panel-heading" className="visually-hidden">
            <FormattedMessage id="live.panelHeading" values={{ code: data.spacedCode }} />
          </h2>
          {/* biome-ignore lint/a11y/useSemanticElements: a labelled group of buttons, not a form's fieldset */}
          <div
            className="live-follow__reactions"
            role="group"
            aria-label={intl.formatMessage({ id: "live.react.heading" })}
          >
            {data.reactions.map((reaction) => (
              <button
                key={reaction}
                type="button"
                className="live-reaction"
                onClick={() => void sendReaction(reaction)}
                aria-label={intl.formatMessage({ id: REACTION_LABELS[reaction] })}
                data-reaction={reaction}
              >
                <ReactionIcon reaction={reaction} />
              </button>
            ))}
          </div>
          <p className={`live-follow__notice live-follow__notice--${notice?.tone ?? "ok"}`} role="status">
            {notice ? <FormattedMessage id={notice.id} values={notice.values} /> : null}
          </p>
          <div className="live-questions">
            <h3 className="live-questions__heading">
              <FormattedMessage id="live.questions.heading" />
            </h3>
            {state.questionsEnabled ? (
              <form className="live-questions__form" onSubmit={(event) => void ask(event)}>
                <label htmlFor="live-question" className="live-questions__label">
                  <FormattedMessage id="live.questions.label" />
                </label>
                <textarea
                  id="live-question"
                  className="live-questions__input"
                  value={question}
                  onChange={(event) => setQuestion(event.target.value)}
                  maxLength={LIVE_QUESTION_MAX_LENGTH}
                  rows={2}
                  aria-describedby="live-question-hint"
                />
                <p id="live-question-hint" className="live-questions__hint">
                  <FormattedMessage id="live.questions.hint" values={{ max: LIVE_QUESTION_MAX_LENGTH }} />
                </p>
                <button type="submit" className="button button--primary" disabled={sending}>
                  <FormattedMessage id="live.questions.submit" />
                </button>
              </form>
            ) : (
              <p className="live-questions__off">
                <FormattedMessage id="live.questions.off" />
              </p>
            )}
            {questions.length === 0 ? (
              <p className="live-questions__none">
                <FormattedMessage id="live.questions.none" />
              </p>
            ) : (
              <ul className="live-questions__list">
                {questions.map((item) => (
                  <li key={item.id} className="live-question" data-question-id={item.id}>
                    <p className="live-question__text">{item.text}</p>
                    <div className="live-question__meta">
                      {item.answered ? (
                        <span className="live-question__answered">
                          <FormattedMessage id="live.questions.answered" />
                        </span>
                      ) : null}
                      <button
                        type="button"
                        className="button live-question__vote"
                        onClick={() => void vote(item.id)}
                        disabled={voted.has(item.id)}
                        aria-pressed={voted.has(item.id)}
                      >
                        <FormattedMessage id="live.questions.vote" values={{ votes: item.votes }} />
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
