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

/** Spec §3 families: Analytics (sources Js and Webgl). */
export const ANALYTICS_FAMILY = { type: "Analytics", source: "Js", schemaId: 1 } as const;

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
}): UsageEvent {
  return {
    core: {
      type: ANALYTICS_FAMILY.type,
      schema_id: ANALYTICS_FAMILY.schemaId,
      client_time: input.now,
      event_source: ANALYTICS_FAMILY.source,
      event_type: input.eventName,
    },
    event_source: { single_page_session_id: input.pageSessionId },
    platform: { type: "Web", id: input.cookieId, referer: input.referer, url: input.url },
    user: { session_id: input.sessionId },
    body: { event_name: input.eventName, ...input.fields },
  };
}
