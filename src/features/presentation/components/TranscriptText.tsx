import type { ReactNode } from "react";
import type { Text } from "../../../document/schema";
import type { Transcript, TranscriptTopic } from "../../../document/transcript";
import { FormattedMessage } from "../../../i18n/intl";
import { RichText, Runs } from "./slide/rich-text";

/** Spec §9: transcript indentation is 24 px per topic depth. */
export const TRANSCRIPT_INDENT_PX = 24;

/**
 * The transcript's text, server-rendered: search engines and screen readers get the content,
 * rich as on the slides (marks, links with their target, lists, quotes, code, tables), and
 * each slide's speaker notes under it. Every view page carries it (a 50-slide deck's is most of
 * the page), so the markup stays lean (issue 11): slide titles are bare `h3`s, each other text
 * has one class naming its style, and only nested topics carry an indent.
 */
export function TranscriptText({ transcript }: { transcript: Transcript }) {
  if (transcript.topics.length === 0) {
    return (
      <p className="transcript__empty">
        <FormattedMessage id="transcript.empty" />
      </p>
    );
  }
  return (
    <>
      {transcript.topics.map((topic) => (
        <TranscriptTopicView key={topic.id} topic={topic} nested={false} />
      ))}
    </>
  );
}

/** The server's transcript drawing, for TranscriptMarkup's provider (transcript-markup.ts). */
export function drawTranscript(transcript: Transcript): ReactNode {
  return <TranscriptText transcript={transcript} />;
}

function TranscriptTopicView({ topic, nested }: { topic: TranscriptTopic; nested: boolean }) {
  // Each level of nesting indents its topics by 24 px more than their parent's.
  return (
    <div className="transcript__topic" style={nested ? { marginInlineStart: TRANSCRIPT_INDENT_PX } : undefined}>
      {topic.step ? (
        // Issue 12: each section plays its slide (the player follows #step=N links on its page). No
        // class: a 50-slide deck carries 50 of these (CSS finds them as the topic's `#step=` link).
        <a href={`#step=${topic.step}`}>
          <FormattedMessage id="transcript.slideLink" values={{ number: topic.step }} />
        </a>
      ) : null}
      {topic.texts.map((text) => (
        <TranscriptTextView key={text.id} text={text} />
      ))}
      {topic.images?.map((alt, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <p key={index} className="transcript__image">
          <FormattedMessage id="transcript.image" values={{ alt }} />
        </p>
      ))}
      {topic.notes ? <SpeakerNotes notes={topic.notes} /> : null}
      {topic.topics.map((child) => (
        <TranscriptTopicView key={child.id} topic={child} nested />
      ))}
    </div>
  );
}

/** One text of a slide as the transcript shows it (also the reading mode's, issue 12). */
export function TranscriptTextView({ text }: { text: Text }) {
  const style = text.styleClasses[0] ?? "body";
  // A slide's title is a heading under the transcript's own (h2), so readers can jump between slides.
  // R3.7: a title whose paragraphs include list items keeps their markers (drawn as a list below).
  if (style === "title" && !text.kind && text.paragraphs.every((p) => p.listType === "NONE")) {
    return (
      <>
        {text.paragraphs.map((p, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <h3 key={index}>
            <Runs runs={p.runs && p.runs.length > 0 ? p.runs : [{ text: p.text }]} />
          </h3>
        ))}
      </>
    );
  }
  return <RichText text={text} className={`transcript__${style}`} />;
}

/** Speaker notes: plain text, paragraphs separated by blank lines. */
export function SpeakerNotes({ notes }: { notes: string }) {
  return (
    <div className="transcript__notes">
      <p className="transcript__notes-label">
        <FormattedMessage id="transcript.speakerNotes" />
      </p>
      {notes.split(/\n\s*\n/).map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}
