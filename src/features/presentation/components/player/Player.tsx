import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { PresentationDocument } from "../../../../document/schema";
import { FormattedMessage, useIntl } from "../../../../i18n/intl";
import { ownerDisplayName } from "../../../../lib/owner";
import { AVATAR_SIZE, Avatar } from "../../../../ui/Avatar";
import { logClientProblem, trackEvent } from "../../../events/client";
import { EVENT_FAMILIES, PLAYER_EVENTS } from "../../../events/usage-event";
import type { PlayerDeck } from "../../page-data";
import {
  afterPreviewError,
  ChunkLoadError,
  clampProgress,
  type LoadStatus,
  METADATA_MARGIN,
  OVERLAY_TRANSITION_MS,
  type OverlayMode,
  type OverlayState,
  overlayModeFor,
  PROGRESS_SIZE,
  type PreviewState,
  previewSource,
  stepFromHash,
  visiblePreview,
} from "../../player-rules";
import { CircularProgress } from "./CircularProgress";
import type { EmbedApiTarget } from "./embed-api-host";
import { loadPresentViewer, type PresentViewerChunk, prefetchPresentViewer } from "./load-viewer";
import "./player.css";
import { Icon } from "../../../../ui/Icon";
import { LastModified } from "../../../../ui/LastModified";

export interface PlayerProps extends PlayerDeck {
  fallbackPreviewUrl: string | null;
  /** Start without the Present click (page data shouldAutoplay/forceAutoplay, embed ?autoplay=1). */
  autoplay: boolean;
  /** Issue 12: the reading mode (every slide in a column, with its text), offered beside Present. */
  readingUrl?: string | null;
  /** Embed page: a link to the presentation on Podium, on the start overlay. */
  viewOnPodiumUrl: string | null;
  /** An optional learn-more-about-Podium link on the restart overlay. */
  learnMoreUrl: string | null;
  /** R2.29: the restart overlay's promotional variant (video ad and get-the-product link) instead of learn-more. */
  restartPromo?: { ctaUrl: string } | null;
  /** The title is the page's main heading (embed and private pages). */
  titleIsHeading: boolean;
  /**
   * The start overlay shows title, owner and date over the poster (spec §2, R2.27). Issue 12: off
   * on the view page, whose card right below says the same: there the first slide is the poster.
   */
  posterMeta: boolean;
  /** Issue 10: this presentation's presenter view (null where there is none, e.g. embedded). */
  presenterUrl?: string | null;
  /** The viewer may edit: the presenter view is offered even before there are notes. */
  canEdit?: boolean;
  /** Issue 33: the view link the deck is watched through, for the step reports. */
  viewLinkId?: string | null;
  /**
   * Issue 12: while playing, the first step (1-based) of the topic on screen, so the transcript can
   * mark its section; null when not playing.
   */
  onTopicStep?: (firstStep: number | null) => void;
  /** Issue 34 (embed options): the step (1-based) Present starts at when no link names one. */
  startStep?: number;
  /** Issue 34: after the last step, start again at the first (no restart overlay). */
  loop?: boolean;
  /** Issue 34: without the control bar (the stage takes its room). */
  controls?: boolean;
  /**
   * Issue 34 item 3: answer the embed API's messages from the framing page (embed page only); the
   * hosts the owner allows (none: any site may frame it).
   */
  embedApi?: { allowedHosts: readonly string[] } | null;
  /**
   * Issue 35 (live sessions): move to this step (1-based) whenever the object changes, as the
   * presenter moves (quietly: no scrolling, focus stays). No presenter view sync in follow mode.
   */
  follow?: { step: number } | null;
  /** Issue 35: every step the player shows (0-based), moved by the viewer or by `follow`. */
  onStepChange?: (step: number) => void;
}

/** Spec §3: the player's events are the Analytics family's Webgl source (the pages' own are Js). */
function playerEvent(name: (typeof PLAYER_EVENTS)[keyof typeof PLAYER_EVENTS], oid: string): void {
  void trackEvent(name, { oid }, EVENT_FAMILIES.analyticsWebgl);
}

type Failure = { kind: "chunk"; error: ChunkLoadError } | { kind: "document" };

/**
 * The player: the overlays of spec §2/§4 (start, loading, restart) around the viewer, which
 * loads on demand as the present-viewer chunk together with the document and its images.
 */
export function Player(props: PlayerProps) {
  const intl = useIntl();
  const rootRef = useRef<HTMLDivElement>(null);
  const previewRef = useRef<HTMLImageElement>(null);
  const [overlay, setOverlay] = useState<OverlayState | null>("start");
  const [mode, setMode] = useState<OverlayMode>("large");
  const [previewState, setPreviewState] = useState<PreviewState>("loading");
  const [loadStatus, setLoadStatus] = useState<LoadStatus>("none");
  const [progress, setProgress] = useState(0);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [viewer, setViewer] = useState<{ chunk: PresentViewerChunk; document: PresentationDocument } | null>(null);
  const [step, setStep] = useState(Math.max(0, (props.startStep ?? 1) - 1));
  const startStep = useRef(Math.max(0, (props.startStep ?? 1) - 1));

  // §2 Responsive modes follow the player's own size.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setMode(overlayModeFor(entry.contentRect.width, entry.contentRect.height));
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  // The preview may have loaded (or failed) before hydration attached its handlers.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as hydration attaches the handlers
  useEffect(() => {
    const image = previewRef.current;
    if (image?.complete)
      setPreviewState(image.naturalWidth > 0 ? "show" : afterPreviewError("loading", props.fallbackPreviewUrl));
  }, []);

  const present = useCallback(async () => {
    setOverlay("loading");
    setLoadStatus("loading");
    setFailure(null);
    setProgress(0);
    // Progress counts real items: the viewer chunk, the document, then each of its images.
    let chunkDone = 0;
    let documentProgress = { done: 0, total: 1 };
    const report = () =>
      setProgress(clampProgress(((documentProgress.done + chunkDone) / (documentProgress.total + 1)) * 100));
    try {
      const [chunk, document] = await Promise.all([
        loadPresentViewer().then((loaded) => {
          chunkDone = 1;
          report();
          return loaded;
        }),
        // Issue 30: the document's loader (and its camera maths) is a chunk of its own, beside the viewer's.
        import("./load-presentation").then(({ loadPresentation }) =>
          loadPresentation(props.documentUrl, (done, total) => {
            documentProgress = { done, total };
            report();
          }),
        ),
      ]);
      setProgress(100);
      setStep(Math.min(startStep.current, document.path.length - 1));
      setViewer({ chunk, document });
      setLoadStatus("success");
      setOverlay(null);
      playerEvent(PLAYER_EVENTS.presentationStarted, props.oid);
    } catch (error) {
      setLoadStatus("error");
      setFailure(error instanceof ChunkLoadError ? { kind: "chunk", error } : { kind: "document" });
      void logClientProblem({
        msg: (error as Error).message,
        levelname: "ERROR",
        object: "player",
        action: error instanceof ChunkLoadError ? `chunk_${error.type}` : "document",
        trigger: "present",
        source: "viewer",
        presentation_id: props.oid,
      });
    }
  }, [props.documentUrl, props.oid]);

  // A #step=N deep link (or autoplay) starts playing at once.
  useEffect(() => {
    const linked = stepFromHash(window.location.hash, props.stepCount);
    if (linked !== null) startStep.current = linked - 1;
    if (linked !== null || props.autoplay) void present();
  }, [present, props.autoplay, props.stepCount]);

  const onStepChange = useRef(props.onStepChange);
  onStepChange.current = props.onStepChange;
  const changeStep = useCallback((next: number) => {
    setStep(next);
    window.history.replaceState(window.history.state, "", `#step=${next + 1}`);
    onStepChange.current?.(next);
  }, []);

  // Issue 12: a `#step=N` link on the page (the transcript's) plays that step, even when the
  // address already says it (no hashchange then), and brings the player into view.
  const viewerRef = useRef(viewer);
  viewerRef.current = viewer;
  const goToLinkedStep = useCallback(
    (linked: number) => {
      const root = rootRef.current;
      root?.scrollIntoView({ block: "nearest" });
      if (viewerRef.current) {
        changeStep(Math.min(linked - 1, viewerRef.current.document.path.length - 1));
        setOverlay(null);
        root?.querySelector<HTMLElement>(".viewer__stage")?.focus({ preventScroll: true });
      } else {
        startStep.current = linked - 1;
        window.history.replaceState(window.history.state, "", `#step=${linked}`);
        void present();
      }
    },
    [changeStep, present],
  );
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href^='#step=']");
      if (!link) return;
      const linked = stepFromHash(link.getAttribute("href") ?? "", props.stepCount);
      if (linked === null) return;
      event.preventDefault();
      goToLinkedStep(linked);
    };
    const onHashChange = () => {
      const linked = stepFromHash(window.location.hash, props.stepCount);
      if (linked !== null) goToLinkedStep(linked);
    };
    document.addEventListener("click", onClick);
    window.addEventListener("hashchange", onHashChange);
    return () => {
      document.removeEventListener("click", onClick);
      window.removeEventListener("hashchange", onHashChange);
    };
  }, [goToLinkedStep, props.stepCount]);

  // Issue 12: tell the page which topic is on screen (by its first step), for the transcript.
  const { onTopicStep } = props;
  const topicStep = viewer && overlay === null ? firstStepOf(viewer.document, step) : null;
  useEffect(() => {
    onTopicStep?.(topicStep);
  }, [onTopicStep, topicStep]);

  // Issue 10: a presenter view in another window follows the step and may move it (AudienceSync,
  // which comes with the viewer's chunk: issue 30).
  const onEnd = useCallback(() => {
    playerEvent(PLAYER_EVENTS.presentationEnded, props.oid);
    if (props.loop) changeStep(0);
    else setOverlay("restart");
  }, [changeStep, props.loop, props.oid]);

  // Issue 34: what the host page asks for moves the player without scrolling the host page or
  // taking its focus (its own button keeps it).
  const quiet = useRef(false);
  const apiGoTo = (linked: number) => {
    const current = viewerRef.current;
    // Only a change of overlay or viewer runs the focus effect below, which then stays quiet.
    quiet.current = !current || overlay !== null;
    if (current) {
      changeStep(Math.min(linked - 1, current.document.path.length - 1));
      setOverlay(null);
    } else {
      startStep.current = linked - 1;
      setStep(linked - 1);
      // Already loading: it starts at the step asked for last.
      if (overlay !== "loading") void present();
    }
  };

  // Issue 35: a live session's follower moves with the presenter.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new follow object is one move
  useEffect(() => {
    if (props.follow) apiGoTo(props.follow.step);
  }, [props.follow]);

  // Issue 34 item 3: the embed API (the framing page's messages), with the viewer's chunk or not.
  const apiTarget = useRef<EmbedApiTarget | null>(null);
  apiTarget.current = {
    state: {
      step: step + 1,
      total: viewer ? viewer.document.path.length : props.stepCount,
      playing: viewer !== null && overlay === null,
      ended: overlay === "restart",
    },
    document: viewer?.document ?? props.documentUrl,
    goTo: apiGoTo,
    end: () => {
      quiet.current = !props.loop;
      onEnd();
    },
  };
  // Its code is a chunk of its own, loaded by the embed page only (not part of the view page's JavaScript).
  const embedHosts = props.embedApi?.allowedHosts ?? null;
  const apiHost = useRef<typeof import("./embed-api-host") | null>(null);
  useEffect(() => {
    if (!embedHosts) return;
    let cancelled = false;
    let stop: (() => void) | null = null;
    // A chunk that fails to load is reported as an unhandled rejection; the player plays on.
    void import("./embed-api-host").then((host) => {
      if (cancelled) return;
      apiHost.current = host;
      stop = host.listenForEmbedApi(embedHosts, () => apiTarget.current);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [embedHosts]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the events follow what the state is made of
  useEffect(() => {
    if (embedHosts) apiHost.current?.announceEmbedState(apiTarget.current);
  }, [embedHosts, step, overlay, viewer]);

  const onPresenterGo = useCallback(
    (next: number) => {
      changeStep(next);
      setOverlay(null);
    },
    [changeStep],
  );

  const restart = () => {
    playerEvent(PLAYER_EVENTS.presentationRestarted, props.oid);
    changeStep(0);
    setOverlay(null);
    rootRef.current?.querySelector<HTMLElement>(".viewer__stage")?.focus();
  };

  // Focus follows what the visitor can act on: the viewer when it opens, Restart at the end.
  // Issue 28: a portrait page's player on a phone is taller than the room below the header; once
  // it plays, the whole of it (the control bar too) is brought into view.
  // Issue 29: in the same commit as "playing" shows (a layout effect), so a key pressed the moment
  // the player opens reaches the viewer; a passive effect left focus on the page until it ran.
  useLayoutEffect(() => {
    const acts = (overlay === null && viewer !== null) || overlay === "restart";
    if (acts && quiet.current) {
      quiet.current = false;
      return;
    }
    if (overlay === null && viewer) {
      rootRef.current?.scrollIntoView?.({ block: "nearest" });
      rootRef.current?.querySelector<HTMLElement>(".viewer__stage")?.focus({ preventScroll: true });
    }
    if (overlay === "restart") rootRef.current?.querySelector<HTMLElement>(".overlay__restart")?.focus();
  }, [overlay, viewer]);

  const preview = visiblePreview(previewState, props);
  const ownerName = ownerDisplayName(props.owner);
  const TitleTag = props.titleIsHeading ? "h1" : "p";
  const Viewer = viewer?.chunk.PresentViewer;
  const restartButton = (
    <button type="button" className="overlay__present overlay__restart" onClick={restart}>
      <Icon size={26} path="M12 5V2L7 6l5 4V7a5 5 0 1 1-5 5H5a7 7 0 1 0 7-7z" />
      <FormattedMessage id="player.restart" />
    </button>
  );

  return (
    <div
      ref={rootRef}
      className={`player player--${mode}${props.controls === false ? " player--no-controls" : ""}`}
      data-player-state={overlay ?? "playing"}
      data-load-status={loadStatus}
      data-preview-state={previewState}
      style={{
        ["--metadata-margin" as string]: `${METADATA_MARGIN[mode]}px`,
        ["--overlay-transition" as string]: `${OVERLAY_TRANSITION_MS}ms`,
        ["--page-aspect" as string]: props.pageAspect,
        ["--poster-aspect" as string]: props.posterAspect,
      }}
    >
      {viewer ? (
        <viewer.chunk.StepReporter
          oid={props.oid}
          step={step}
          playing={overlay === null}
          linkId={props.viewLinkId ?? null}
          canEdit={props.canEdit === true}
        />
      ) : null}
      {viewer && props.follow === undefined ? (
        <viewer.chunk.AudienceSync
          oid={props.oid}
          step={step}
          total={viewer.document.path.length}
          onGo={onPresenterGo}
        />
      ) : null}
      {Viewer && viewer ? (
        <Viewer
          document={viewer.document}
          title={props.title}
          step={step}
          onStep={changeStep}
          onEnd={onEnd}
          hidden={overlay !== null}
          presenterUrl={props.presenterUrl ?? null}
          canEdit={props.canEdit === true}
        />
      ) : null}

      <div
        className={`overlay${overlay ? ` overlay--visible overlay--${overlay}` : ""}${preview ? " overlay--preview" : ""}`}
        hidden={overlay === null}
      >
        <img
          ref={previewRef}
          className="overlay__preview"
          // Issue 30: the poster is the page's largest paint; without this a phone fetched it after
          // the page's scripts (1.6 Mbit/s: LCP 2.0 s against a first paint of 1.2 s).
          fetchPriority="high"
          // "none": no address at all, so nothing is asked for again (issue 28: a failed fallback that
          // pointed back at the preview made the two fail in turn without end).
          src={previewSource(previewState, props)}
          alt=""
          // R4.1 absent while loading: an image paints nothing until it has arrived, so it stays in
          // the page then, and paints the moment it arrives, before the page's script runs (issue 30:
          // it is the page's largest paint). Hidden once there is none to show.
          hidden={preview === null && previewState !== "loading"}
          // §4 (R4.1): a failed preview gives way to the fallback (tried once); a failed fallback leaves no image.
          onLoad={() => setPreviewState((state) => (state === "fallback" ? state : "show"))}
          onError={() => setPreviewState((state) => afterPreviewError(state, props.fallbackPreviewUrl))}
        />
        {overlay === "start" ? (
          <div
            className={`overlay__content overlay__content--start${props.posterMeta ? "" : " overlay__content--poster"}`}
          >
            {props.posterMeta ? (
              <div className="overlay__meta">
                <TitleTag className="overlay__title">{props.title}</TitleTag>
                <p className="overlay__owner">
                  <Avatar
                    initials={props.owner.avatarInitials}
                    color={props.owner.avatarColor}
                    size={AVATAR_SIZE.overlay}
                  />
                  <span>{ownerName}</span>
                </p>
                <p className="overlay__date">
                  <LastModified date={props.lastModified} />
                </p>
              </div>
            ) : null}
            <div className="overlay__actions">
              <button
                type="button"
                className="overlay__present"
                onClick={() => void present()}
                // Issue 30: intent to present fetches the viewer and the document's loader ahead of the click.
                onPointerEnter={prefetchPresentViewer}
                onFocus={prefetchPresentViewer}
              >
                <Icon size={28} path="M8 5v14l11-7z" />
                <FormattedMessage id="player.present" />
              </button>
              {props.readingUrl ? (
                <a className="overlay__read" href={props.readingUrl}>
                  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                    <path
                      d="M4 5h7a3 3 0 0 1 3 3v11a2 2 0 0 0-2-2H4zM20 5h-4a3 3 0 0 0-3 3v11a2 2 0 0 1 2-2h5z"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="2"
                      strokeLinejoin="round"
                    />
                  </svg>
                  <FormattedMessage id="reading.open" />
                </a>
              ) : null}
            </div>
            {props.viewOnPodiumUrl ? (
              <a className="overlay__link" href={props.viewOnPodiumUrl} target="_blank" rel="noopener">
                <FormattedMessage id="player.viewOnPodium" />
              </a>
            ) : null}
          </div>
        ) : null}

        {overlay === "loading" && !failure ? (
          <div className="overlay__content overlay__content--loading">
            <CircularProgress
              percent={progress}
              size={PROGRESS_SIZE[mode]}
              label={intl.formatMessage({ id: "player.loading" })}
            />
            <p className="overlay__loading-text" aria-live="polite">
              <FormattedMessage id="player.loading" />
            </p>
          </div>
        ) : null}

        {overlay === "loading" && failure ? (
          <div
            className="overlay__content overlay__content--error"
            role="alert"
            data-chunk-error-type={failure.kind === "chunk" ? failure.error.type : undefined}
          >
            <p className="overlay__error-title">
              <FormattedMessage id={failure.kind === "chunk" ? "player.chunkError" : "player.documentError"} />
            </p>
            <button type="button" className="overlay__present overlay__present--small" onClick={() => void present()}>
              <FormattedMessage id="player.retry" />
            </button>
          </div>
        ) : null}

        {overlay === "restart" ? (
          <div
            className={`overlay__content overlay__content--restart${props.restartPromo ? " overlay__content--promo" : ""}`}
          >
            {props.restartPromo && viewer ? (
              <viewer.chunk.RestartPromo ctaUrl={props.restartPromo.ctaUrl}>{restartButton}</viewer.chunk.RestartPromo>
            ) : (
              <>
                {restartButton}
                {props.learnMoreUrl ? (
                  <a className="overlay__link" href={props.learnMoreUrl}>
                    <FormattedMessage id="player.learnMore" />
                  </a>
                ) : null}
              </>
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The first step (1-based) that shows the same topic as this step (0-based). */
function firstStepOf(document: PresentationDocument, step: number): number | null {
  const topic = document.path[step];
  if (topic === undefined) return null;
  return document.path.indexOf(topic) + 1;
}
