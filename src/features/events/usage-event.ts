/** Spec §3 "Usage event": the shape the browser sends and the server stores. */
export interface UsageEvent {
  core: { type: string; schema_id: number; client_time: number; event_source: string; event_type: string };
  event_source: { single_page_session_id: string };
  platform: { type: "Web"; id: string | null; referer: string | null; url: string };
  user: { session_id: string };
  body: { event_name: string } & Record<string, unknown>;
}

/** Podium's own client-log endpoint (spec §7: "a configurable log endpoint"; routes.ts). */
export const CLIENT_LOG_PATH = "/log/client";

/**
 * Issue 28 item 4: where a view page asks for its signed visitor id (visitor-id.ts): GET with
 * `?session_id=` (the page's usage-session id), answered `{ visitorId }`, null for the owner and
 * collaborators, whose own views don't count.
 */
export const VISITOR_ID_PATH = "/api/views/:oid/visitor-id";

/** VISITOR_ID_PATH for one presentation. */
export function visitorIdPath(oid: string): string {
  return VISITOR_ID_PATH.replace(":oid", encodeURIComponent(oid));
}

/** An event family (spec §3): core.type, core.event_source and core.schema_id. */
export interface EventFamily {
  type: string;
  source: string;
  schemaId: number;
}

/**
 * Spec §3 "Families: Analytics (sources Js and Webgl) and a second family for the video product's
 * web source". Pages send Analytics/Js; the player (the spec's WebGL viewer) sends Analytics/Webgl;
 * the video product's pages send the video family.
 */
export const EVENT_FAMILIES = {
  analyticsJs: { type: "Analytics", source: "Js", schemaId: 1 },
  analyticsWebgl: { type: "Analytics", source: "Webgl", schemaId: 1 },
  videoWeb: { type: "Video", source: "VideoWeb", schemaId: 1 },
} as const satisfies Record<string, EventFamily>;

/** The family of events sent without naming one. */
export const ANALYTICS_FAMILY = EVENT_FAMILIES.analyticsJs;

/** Events the player sends (family Analytics, source Webgl). */
export const PLAYER_EVENTS = {
  /** The viewer has loaded and shows the first step (after Present, autoplay or a step link). */
  presentationStarted: "presentation_started",
  /** The last step was passed: the restart overlay shows. */
  presentationEnded: "presentation_ended",
  /** Restart on the restart overlay. */
  presentationRestarted: "presentation_restarted",
} as const;

/** Events the video product's pages send (the video family). */
export const VIDEO_EVENTS = {
  loadedVideoPage: "loaded_video_page",
} as const;

/** Spec §4 tracked viewer actions, by the names Podium stores. */
export const VIEWER_EVENTS = {
  loadedPublicViewPage: "loaded_public_view_page",
  pagedTranscriptShown: "paged_transcript_shown",
  transcriptOpened: "transcript_opened",
  ctaClicked: "cta_clicked",
  presentationCardOpened: "presentation_card_opened",
  openEditor: "open_editor",
  openForCommenting: "open_for_commenting",
  showModal: "show_modal",
  closeModal: "close_modal",
  embedCodeCopied: "embed_code_copied",
} as const;

export function buildUsageEvent(input: {
  eventName: string;
  fields: Record<string, unknown>;
  sessionId: string;
  /** The usage-session id when it lives in a cookie (spec §3 platform: cookie-derived id or null). */
  cookieId: string | null;
  pageSessionId: string;
  url: string;
  referer: string | null;
  now: number;
  /** The event's family; Analytics/Js unless given. */
  family?: EventFamily;
}): UsageEvent {
  const family = input.family ?? ANALYTICS_FAMILY;
  return {
    core: {
      type: family.type,
      schema_id: family.schemaId,
      client_time: input.now,
      event_source: family.source,
      event_type: input.eventName,
    },
    event_source: { single_page_session_id: input.pageSessionId },
    platform: { type: "Web", id: input.cookieId, referer: input.referer, url: input.url },
    user: { session_id: input.sessionId },
    body: { event_name: input.eventName, ...input.fields },
  };
}
