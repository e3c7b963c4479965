import { type PointerEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  cameraTransform,
  firstStepNumbers,
  isCrowdedOverview,
  topicClipPath,
  topicRects,
  topicsById,
} from "../../../../document/camera";
import type { PresentationDocument } from "../../../../document/schema";
import { FormattedMessage, useIntl } from "../../../../i18n/intl";
import { KEY_CODES } from "../../../../lib/constants";
import { Icon } from "../../../../ui/Icon";
import { CAMERA_PADDING, STEP_TRANSITION_MS, SWIPE_MIN_DISTANCE } from "../../player-rules";
import { openPresenterView } from "../../presenter/open";
import { presenterOffered } from "../../presenter/sync";
import { slideThemeClass, TopicView } from "../slide/SlideView";

/**
 * The present-viewer chunk (spec §2 lazy chunks): the canvas drawn with the browser's own
 * layout (real, selectable text) and a camera that moves between the path's steps.
 */
/**
 * Issue 30 item 1: what the player needs only once the presentation plays comes with this chunk,
 * not with the page: the presenter view's sync and the restart overlay's promotional variant.
 */
export { AudienceSync } from "../../presenter/components/use-audience-sync";
export { RestartPromo } from "./RestartPromo";
// Issue 33 item 1: the step reports load with the viewer, never before Present.
export { StepReporter } from "./StepReporter";

export interface PresentViewerProps {
  document: PresentationDocument;
  title: string;
  step: number;
  onStep: (step: number) => void;
  /** Asked to go past the last step: the player shows its restart overlay. */
  onEnd: () => void;
  /** Covered by an overlay: not reachable by keyboard or screen reader. */
  hidden: boolean;
  /** Issue 10: this presentation's presenter view (null: none here, e.g. embedded). */
  presenterUrl?: string | null;
  /** The viewer may edit: the presenter view is offered even before the deck has notes. */
  canEdit?: boolean;
}

type Command = "next" | "previous" | "first" | "last" | "exitFullscreen" | null;

/** Spec §9 key codes, read together with KeyboardEvent.key. */
export function commandForKey(event: { key: string; keyCode?: number }): Command {
  if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " " || event.keyCode === KEY_CODES.space)
    return "next";
  if (event.key === "ArrowLeft" || event.key === "PageUp") return "previous";
  if (event.key === "Home") return "first";
  if (event.key === "End") return "last";
  if (event.key === "Escape" || event.keyCode === KEY_CODES.escape) return "exitFullscreen";
  return null;
}

export function PresentViewer({
  document,
  title,
  step,
  onStep,
  onEnd,
  hidden,
  presenterUrl: presenterRoute = null,
  canEdit = false,
}: PresentViewerProps) {
  const intl = useIntl();
  const viewerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [fullscreen, setFullscreen] = useState(false);
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  const rects = useMemo(() => topicRects(document), [document]);
  const topics = useMemo(() => topicsById(document), [document]);
  const stepNumbers = useMemo(() => firstStepNumbers(document), [document]);
  const total = document.path.length;
  const current = rects.get(document.path[step] ?? "");
  const transitionMs = document.schemaVersion === "0" ? STEP_TRANSITION_MS.classic : STEP_TRANSITION_MS.pitch;
  // Issue 10: the presenter view (button and P key) where the deck has notes, or for its editors.
  const presenterUrl = useMemo(
    () => (presenterRoute && presenterOffered(document.topics, canEdit) ? presenterRoute : null),
    [presenterRoute, document, canEdit],
  );
  /** Opens the presenter view; false where there is none. */
  const openPresenter = (): boolean => {
    if (presenterUrl) openPresenterView(presenterUrl, step);
    return presenterUrl !== null;
  };

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(stage);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onChange = () => setFullscreen(globalThis.document.fullscreenElement !== null);
    globalThis.document.addEventListener("fullscreenchange", onChange);
    return () => globalThis.document.removeEventListener("fullscreenchange", onChange);
  }, []);

  const go = (command: Command) => {
    if (command === "next") {
      if (step + 1 < total) onStep(step + 1);
      else onEnd();
    } else if (command === "previous") {
      if (step > 0) onStep(step - 1);
    } else if (command === "first") onStep(0);
    else if (command === "last") onStep(total - 1);
    else if (command === "exitFullscreen" && globalThis.document.fullscreenElement) {
      void globalThis.document.exitFullscreen();
    }
  };

  // Keys work wherever focus is inside the viewer (the stage or a control).
  const goRef = useRef(go);
  goRef.current = go;
  const openPresenterRef = useRef(openPresenter);
  openPresenterRef.current = openPresenter;
  // A layout effect, like the player's focus: the keys work from the moment the viewer shows, not
  // from whenever the browser next gets round to effects (issue 29: on a busy machine an arrow
  // pressed as the player turned "playing" went nowhere).
  useLayoutEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement;
      // Space and Enter on a button press that button; arrows still move.
      if ((event.key === " " || event.key === "Enter") && target.closest("button, a")) return;
      // Issue 10: P opens the presenter view (where there is one), like reveal.js's S.
      if ((event.key === "p" || event.key === "P") && openPresenterRef.current()) {
        event.preventDefault();
        return;
      }
      const command = commandForKey(event);
      if (!command) return;
      event.preventDefault();
      goRef.current(command);
    };
    viewer.addEventListener("keydown", onKeyDown);
    return () => viewer.removeEventListener("keydown", onKeyDown);
  }, []);

  const toggleFullscreen = () => {
    const player = stageRef.current?.closest<HTMLElement>(".player");
    if (globalThis.document.fullscreenElement) void globalThis.document.exitFullscreen();
    else void player?.requestFullscreen?.();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    swipeStart.current = { x: event.clientX, y: event.clientY };
    swiped.current = false;
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) >= SWIPE_MIN_DISTANCE && Math.abs(dx) > Math.abs(dy)) {
      swiped.current = true;
      go(dx < 0 ? "next" : "previous");
    }
  };
  const onClick = () => {
    // A swipe also ends in a click; it has already moved.
    if (swiped.current) {
      swiped.current = false;
      return;
    }
    go("next");
  };

  // Issue 28 (issue 12 did it for phones): on every stage one page fills the room (the stage has the
  // deck's page shape) and the canvas is clipped to the step's topic, so nothing of the neighbouring
  // pages shows around it, whatever the page's shape: in the page, full screen and embedded.
  const transform = current && size.width > 0 ? cameraTransform(current, size, CAMERA_PADDING) : undefined;
  const clipPath = current ? topicClipPath(current) : undefined;
  // The first placement is instant; later steps glide. "settled" marks a step fully shown.
  const placed = useRef(false);
  const [camera, setCamera] = useState<"moving" | "settled">("settled");
  const lastTransform = useRef(transform);
  // A layout effect (issue 29): "moving" comes in the commit that moves to the new step, so no one
  // reading the viewer sees the new step beside the last step's "settled" (a busy machine's passive
  // effect ran late, and a test measured the page mid-move as settled).
  useLayoutEffect(() => {
    if (transform && !placed.current) {
      placed.current = true;
      lastTransform.current = transform;
      return;
    }
    // Only a real camera move ends in a transitionend; the same place is settled at once.
    if (transform !== lastTransform.current) {
      lastTransform.current = transform;
      setCamera("moving");
    }
  }, [transform]);
  // Tab reaches the links of the step on screen only: the other slides' links are off the camera.
  const currentId = document.path[step] ?? "";
  useEffect(() => {
    const canvas = stageRef.current?.querySelector(".viewer__canvas");
    if (!canvas) return;
    const shown = canvas.querySelector(`[data-topic-id="${CSS.escape(currentId)}"]`);
    for (const link of canvas.querySelectorAll<HTMLAnchorElement>("a[href]")) {
      link.tabIndex = shown?.contains(link) ? 0 : -1;
    }
  }, [currentId]);
  const stepLabel = intl.formatMessage({ id: "player.stepStatus" }, { current: step + 1, total });

  return (
    <div
      ref={viewerRef}
      className={`viewer ${slideThemeClass(document.theme)}${isCrowdedOverview(topics.get(document.path[step] ?? "")) ? " viewer--overview" : ""}`}
      hidden={hidden}
      data-current-step={step + 1}
      data-step-count={total}
      data-camera={transform ? camera : "placing"}
    >
      {/* The stage takes focus, clicks and swipes; the keys are read for the whole viewer (an
          effect above) and every action also has a button below. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a focusable stage region, not a form group */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled for the whole viewer */}
      <div
        ref={stageRef}
        className="viewer__stage"
        role="group"
        aria-roledescription={intl.formatMessage({ id: "player.roleDescription" })}
        aria-label={intl.formatMessage({ id: "player.region" }, { title })}
        aria-describedby="viewer-keyboard-hint"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the stage takes focus so arrow keys move the presentation
        tabIndex={0}
        onClick={onClick}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
      >
        <div
          className="viewer__canvas slide-canvas"
          style={{
            transform,
            clipPath,
            transitionDuration: placed.current ? `${transitionMs}ms` : "0ms",
            visibility: transform ? "visible" : "hidden",
          }}
          onTransitionEnd={(event) => {
            const canvas = event.currentTarget;
            if (event.target !== canvas) return;
            // The last step's move can end in the frame the next one starts (a quick second press, a
            // busy machine): its transitionend then arrives mid-move. Settled is when nothing moves.
            if (canvas.getAnimations?.().some((animation) => animation.playState === "running")) return;
            setCamera("settled");
          }}
        >
          {document.topics.map((topic) => (
            <TopicView key={topic.id} topic={topic} stepNumbers={stepNumbers} />
          ))}
        </div>
      </div>
      <p id="viewer-keyboard-hint" className="visually-hidden">
        <FormattedMessage id="player.keyboardHint" />
        {presenterUrl ? (
          <>
            {" "}
            <FormattedMessage id="player.presenterHint" />
          </>
        ) : null}
      </p>
      <div className="viewer__controls">
        <button
          type="button"
          className="viewer__button"
          onClick={() => go("previous")}
          disabled={step === 0}
          aria-label={intl.formatMessage({ id: "player.previous" })}
        >
          <Icon size={24} path="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z" />
        </button>
        <span className="viewer__counter" aria-live="polite" aria-atomic="true">
          <span className="visually-hidden">{stepLabel}</span>
          <span aria-hidden="true">
            <FormattedMessage id="player.stepCounter" values={{ current: step + 1, total }} />
          </span>
        </span>
        <button
          type="button"
          className="viewer__button"
          onClick={() => go("next")}
          aria-label={intl.formatMessage({ id: "player.next" })}
        >
          <Icon size={24} path="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
        </button>
        {presenterUrl ? (
          <button
            type="button"
            className="viewer__button viewer__button--presenter"
            onClick={openPresenter}
            aria-label={intl.formatMessage({ id: "player.presenterView" })}
            aria-keyshortcuts="P"
            title={intl.formatMessage({ id: "player.presenterView" })}
          >
            <Icon
              size={22}
              path="M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2zM8 14H6v-2h2zm0-3H6V9h2zm0-3H6V6h2zm7 6h-5v-2h5zm3-3h-8V9h8zm0-3h-8V6h8z"
            />
          </button>
        ) : null}
        <button
          type="button"
          className="viewer__button viewer__button--fullscreen"
          onClick={toggleFullscreen}
          aria-label={intl.formatMessage({ id: fullscreen ? "player.exitFullscreen" : "player.fullscreen" })}
          aria-pressed={fullscreen}
        >
          <Icon
            size={22}
            path={
              fullscreen
                ? "M5 16h3v3h2v-5H5zm3-8H5v2h5V5H8zm6 11h2v-3h3v-2h-5zm2-11V5h-2v5h5V8z"
                : "M7 14H5v5h5v-2H7zm-2-4h2V7h3V5H5zm12 7h-3v2h5v-5h-2zM14 5v2h3v3h2V5z"
            }
          />
        </button>
      </div>
    </div>
  );
}
