import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type CanvasRect, topicRects } from "../../../../document/camera";
import type { PresentationDocument } from "../../../../document/schema";
import { FormattedMessage, FormattedTime, useIntl } from "../../../../i18n/intl";
import { onPageOrigin } from "../../../../lib/http-client";
import { commandForKey } from "../../components/player/present-viewer";
import { slideThemeClass, TopicView } from "../../components/slide/SlideView";
import { stepFromHash } from "../../player-rules";
import type { PresenterPageData } from "../page-data";
import { fitSlide, slideHeadline, topicsById } from "../slides";
import { notesParagraphs } from "../sync";
import {
  elapsedMs,
  formatElapsed,
  isoDuration,
  pauseTimer,
  resetTimer,
  resumeTimer,
  startTimer,
  type TimerState,
} from "../timer";
import { usePresenterSync } from "./use-presenter-sync";
import "../../../../ui/styles/base.css";
import "./presenter.css";
import { Icon } from "../../../../ui/Icon";

/** Notes text sizes the speaker can step through (px). */
const NOTES_SIZES = [16, 18, 20, 24, 28, 34, 40] as const;
const DEFAULT_NOTES_SIZE = 3;

type Load = { status: "loading" } | { status: "failed" } | { status: "ready"; document: PresentationDocument };

/**
 * The presenter view (issue 10, speaker notes): the current slide, the next one, the current
 * slide's notes, a timer and the time of day, in a window of its own beside the audience's
 * player, kept in step with it over a BroadcastChannel (works alone too).
 */
export function PresenterPage({
  data,
  live,
}: {
  data: PresenterPageData;
  /** Issue 35: the live session's panel (composed by the live feature), given the step shown here (0-based). */
  live?: (step: number, ready: boolean) => ReactNode;
}) {
  const intl = useIntl();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const document = load.status === "ready" ? load.document : null;
  const total = document?.path.length ?? data.stepCount;
  const { state, go, jump } = usePresenterSync(data.oid, total);
  const [notesSize, setNotesSize] = useState(DEFAULT_NOTES_SIZE);
  const notesRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks again (Try again)
  useEffect(() => {
    let cancelled = false;
    setLoad({ status: "loading" });
    fetch(onPageOrigin(data.documentUrl), { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`document ${response.status}`);
        // Validated when it was saved, as the player reads it.
        const loaded = (await response.json()) as PresentationDocument;
        if (!cancelled) setLoad({ status: "ready", document: loaded });
      })
      .catch(() => {
        if (!cancelled) setLoad({ status: "failed" });
      });
    return () => {
      cancelled = true;
    };
  }, [data.documentUrl, attempt]);

  // The opener passes its step (#step=N) so the view starts where the audience is.
  useEffect(() => {
    if (!document) return;
    const linked = stepFromHash(window.location.hash, document.path.length);
    if (linked !== null) jump(linked - 1);
  }, [document, jump]);

  const step = state.step;
  // Each slide's notes start at their beginning.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    notesRef.current?.scrollTo({ top: 0 });
  }, [step]);
  const move = useCallback(
    (command: ReturnType<typeof commandForKey>) => {
      if (command === "next") go(step + 1);
      else if (command === "previous") go(step - 1);
      else if (command === "first") go(0);
      else if (command === "last") go(total - 1);
    },
    [go, step, total],
  );

  // The player's keys, anywhere in this window.
  const moveRef = useRef(move);
  moveRef.current = move;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if ((event.key === " " || event.key === "Enter") && target?.closest("button, a")) return;
      const command = commandForKey(event);
      if (!command || command === "exitFullscreen") return;
      event.preventDefault();
      moveRef.current(command);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const rects = useMemo(() => (document ? topicRects(document) : null), [document]);
  const byId = useMemo(() => (document ? topicsById(document) : null), [document]);
  const currentId = document?.path[step];
  const nextId = document?.path[step + 1];
  const currentTopic = currentId ? byId?.get(currentId) : undefined;
  const notes = notesParagraphs(currentTopic?.notes);
  const counter = intl.formatMessage({ id: "presenter.slideCounter" }, { current: step + 1, total });

  const slideLabel = (id: string | undefined, number: number) => {
    const headline = slideHeadline(id ? byId?.get(id) : undefined);
    return headline
      ? intl.formatMessage({ id: "presenter.slideImage" }, { number, headline })
      : intl.formatMessage({ id: "presenter.slideImageUntitled" }, { number });
  };

  return (
    <div className="presenter" data-current-step={step + 1} data-step-count={total} data-load-status={load.status}>
      <header className="presenter__bar">
        <h1 className="presenter__heading">
          <span className="presenter__kind" aria-hidden="true">
            <FormattedMessage id="presenter.heading" />
          </span>
          <span className="presenter__deck" aria-hidden="true">
            {data.title}
          </span>
          <span className="visually-hidden">
            {intl.formatMessage({ id: "presenter.pageTitle" }, { title: data.title })}
          </span>
        </h1>
        <p className={`presenter__link presenter__link--${state.connected ? "on" : "off"}`} role="status">
          <span className="presenter__dot" aria-hidden="true" />
          <FormattedMessage id={state.connected ? "presenter.connected" : "presenter.disconnected"} />
        </p>
        <Timer />
        <Clock />
      </header>

      <main className="presenter__main">
        <p className="visually-hidden" aria-live="polite" aria-atomic="true">
          {document ? counter : ""}
        </p>
        <p id="presenter-keyboard-hint" className="visually-hidden">
          <FormattedMessage id="presenter.keyboardHint" />
        </p>

        <section className="presenter__current" aria-labelledby="presenter-current-heading">
          <h2 id="presenter-current-heading" className="presenter__label">
            <FormattedMessage id="presenter.currentSlide" />
          </h2>
          <SlideBox
            document={document}
            rect={currentId ? rects?.get(currentId) : undefined}
            label={document ? slideLabel(currentId, step + 1) : null}
            className="presenter__stage presenter__stage--current"
          >
            {load.status === "loading" ? (
              <p className="presenter__placeholder">
                <FormattedMessage id="presenter.loading" />
              </p>
            ) : null}
            {load.status === "failed" ? (
              <div className="presenter__placeholder" role="alert">
                <p>
                  <FormattedMessage id="player.documentError" />
                </p>
                <button type="button" className="presenter__button" onClick={() => setAttempt((n) => n + 1)}>
                  <FormattedMessage id="player.retry" />
                </button>
              </div>
            ) : null}
          </SlideBox>
          <div className="presenter__toolbar">
            <div className="presenter__nav">
              <button
                type="button"
                className="presenter__button presenter__button--nav"
                onClick={() => go(step - 1)}
                disabled={!document || step === 0}
                aria-describedby="presenter-keyboard-hint"
              >
                <Icon size={22} path="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z" />
                <FormattedMessage id="presenter.previous" />
              </button>
              <p className="presenter__counter">{counter}</p>
              <button
                type="button"
                className="presenter__button presenter__button--nav presenter__button--primary"
                onClick={() => go(step + 1)}
                disabled={!document || step + 1 >= total}
                aria-describedby="presenter-keyboard-hint"
              >
                <FormattedMessage id="presenter.next" />
                <Icon size={22} path="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
              </button>
            </div>
          </div>
        </section>

        <section className="presenter__notes" aria-labelledby="presenter-notes-heading">
          <div className="presenter__notes-head">
            <h2 id="presenter-notes-heading" className="presenter__label">
              <FormattedMessage id="presenter.notes" />
            </h2>
            <div className="presenter__zoom">
              <button
                type="button"
                className="presenter__button presenter__button--icon"
                onClick={() => setNotesSize((n) => Math.max(0, n - 1))}
                disabled={notesSize === 0}
                aria-label={intl.formatMessage({ id: "presenter.notesSmaller" })}
              >
                <TextSizeIcon larger={false} />
              </button>
              <button
                type="button"
                className="presenter__button presenter__button--icon"
                onClick={() => setNotesSize((n) => Math.min(NOTES_SIZES.length - 1, n + 1))}
                disabled={notesSize === NOTES_SIZES.length - 1}
                aria-label={intl.formatMessage({ id: "presenter.notesLarger" })}
              >
                <TextSizeIcon larger />
              </button>
            </div>
          </div>
          <div
            ref={notesRef}
            className="presenter__notes-text"
            style={{ fontSize: NOTES_SIZES[notesSize] }}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
            data-testid="presenter-notes"
          >
            {!document ? null : notes.length > 0 ? (
              notes.map((paragraph, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one slide's notes, never reordered
                <p key={`${step}-${index}`}>{paragraph}</p>
              ))
            ) : (
              <p className="presenter__empty">
                <FormattedMessage id="presenter.noNotes" />
              </p>
            )}
          </div>
        </section>

        <section className="presenter__next" aria-labelledby="presenter-next-heading">
          <h2 id="presenter-next-heading" className="presenter__label">
            <FormattedMessage id="presenter.nextSlide" />
          </h2>
          <SlideBox
            document={nextId ? document : null}
            rect={nextId ? rects?.get(nextId) : undefined}
            label={document && nextId ? slideLabel(nextId, step + 2) : null}
            className="presenter__stage presenter__stage--next"
          >
            {document && !nextId ? (
              <p className="presenter__placeholder presenter__placeholder--end">
                <FormattedMessage id="presenter.end" />
              </p>
            ) : null}
          </SlideBox>
        </section>
      </main>
      {live ? live(step, document !== null) : null}
    </div>
  );
}

/** A letter A with a minus or a plus (an icon: the button's name says what it does). */
function TextSizeIcon({ larger }: { larger: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fillRule="evenodd" d="M2 19 7 5h2l5 14h-2.1l-1.2-3.5H5.3L4.1 19zm4-5.3h3.9L8 8.2z" fill="currentColor" />
      <path d={larger ? "M18 7h2v3h3v2h-3v3h-2v-3h-3v-2h3z" : "M15 10h8v2h-8z"} fill="currentColor" />
    </svg>
  );
}

/**
 * One slide, drawn by the shared renderer and fitted into the box by the player's camera. A
 * picture for the speaker: screen readers get its label, and nothing inside takes focus.
 */
function SlideBox({
  document,
  rect,
  label,
  className,
  children,
}: {
  document: PresentationDocument | null;
  rect: CanvasRect | undefined;
  label: string | null;
  className: string;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const fit = rect && size ? fitSlide(rect, size) : null;
  return (
    <div ref={ref} className={`${className} ${slideThemeClass(document?.theme)}`}>
      {document && label ? (
        <div
          className="presenter__picture"
          role="img"
          aria-label={label}
          style={
            fit ? { left: fit.left, top: fit.top, width: fit.width, height: fit.height } : { visibility: "hidden" }
          }
        >
          <div className="presenter__canvas slide-canvas" inert style={{ transform: fit?.transform }}>
            {document.topics.map((topic) => (
              <TopicView key={topic.id} topic={topic} />
            ))}
          </div>
        </div>
      ) : null}
      {children}
    </div>
  );
}

/** Time since the presenter view opened: mm:ss, with Pause/Resume and Reset. No clock on the server. */
function Timer() {
  const intl = useIntl();
  const [timer, setTimer] = useState<TimerState | null>(null);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const started = Date.now();
    setTimer(startTimer(started));
    setNow(started);
    const tick = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(tick);
  }, []);
  const elapsed = timer && now !== null ? elapsedMs(timer, now) : 0;
  const running = timer?.runningSince !== null;
  const act = (change: (state: TimerState, at: number) => TimerState) => {
    const at = Date.now();
    setTimer((state) => (state ? change(state, at) : state));
    setNow(at);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of controls, not a form's fieldset
    <div className="presenter__timer" role="group" aria-label={intl.formatMessage({ id: "presenter.timer" })}>
      <svg
        className="presenter__timer-icon"
        width="22"
        height="22"
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
      >
        <path
          d="M9 1h6v2H9zm2 7h2v6h-2zm8.03-.62 1.42-1.42c-.43-.51-.9-.99-1.41-1.41l-1.42 1.42A8.96 8.96 0 0 0 12 4a9 9 0 1 0 9 9c0-2.12-.74-4.07-1.97-5.62zM12 20a7 7 0 1 1 0-14 7 7 0 0 1 0 14z"
          fill="currentColor"
        />
      </svg>
      <time
        className={`presenter__elapsed${running ? "" : " presenter__elapsed--paused"}`}
        dateTime={isoDuration(elapsed)}
        role="timer"
        aria-label={intl.formatMessage({ id: "presenter.elapsed" }, { time: formatElapsed(elapsed) })}
        data-testid="presenter-timer"
      >
        {formatElapsed(elapsed)}
      </time>
      <button
        type="button"
        className="presenter__button presenter__button--small"
        onClick={() => act(running ? pauseTimer : resumeTimer)}
        disabled={timer === null}
      >
        <FormattedMessage id={running ? "presenter.pause" : "presenter.resume"} />
      </button>
      <button
        type="button"
        className="presenter__button presenter__button--small"
        onClick={() => act(resetTimer)}
        disabled={timer === null}
      >
        <FormattedMessage id="presenter.reset" />
      </button>
    </div>
  );
}

/** The time of day (hours and minutes), once the page runs in the browser. */
function Clock() {
  const intl = useIntl();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);
  return (
    <p className="presenter__clock">
      <span className="visually-hidden">{intl.formatMessage({ id: "presenter.clock" })}</span>
      {now === null ? null : (
        <time dateTime={new Date(now).toISOString()}>
          <FormattedTime value={now} hour="numeric" minute="2-digit" />
        </time>
      )}
    </p>
  );
}
