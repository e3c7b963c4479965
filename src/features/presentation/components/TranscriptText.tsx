import { FormattedMessage } from "react-intl";
import type { Text } from "../document/schema";
import type { Transcript, TranscriptTopic } from "../document/transcript";
import { RichText, Runs } from "./slide/rich-text";

/** Spec §9: transcript indentation is 24 px per topic depth. */
export const TRANSCRIPT_INDENT_PX = 24;

/**
 * The transcript's text, server-rendered: search engines and screen readers get the content,
 * rich as on the slides (marks, links with their target, lists, quotes, code, tables), and
 * each slide's speaker notes under it.
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
    <div className="transcript__body">
      {transcript.topics.map((topic) => (
        <TranscriptTopicView key={topic.id} topic={topic} depth={0} />
      ))}
    </div>
  );
}

function TranscriptTopicView({ topic, depth }: { topic: TranscriptTopic; depth: number }) {
  return (
    <div className="transcript__topic" style={{ marginInlineStart: depth === 0 ? 0 : TRANSCRIPT_INDENT_PX }}>
      {topic.texts.map((text) => (
        <TranscriptTextView key={text.id} text={text} />
      ))}
      {topic.notes ? <SpeakerNotes notes={topic.notes} /> : null}
      {topic.topics.map((child) => (
        <TranscriptTopicView key={child.id} topic={child} depth={depth + 1} />
      ))}
    </div>
  );
}

function TranscriptTextView({ text }: { text: Text }) {
  const style = text.styleClasses[0] ?? "body";
  // A slide's title is a heading under the transcript's own (h2), so readers can jump between slides.
  if (style === "title" && !text.kind) {
    return (
      <>
        {text.paragraphs.map((p, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <h3 key={index} className="transcript__text transcript__text--title">
            <Runs runs={p.runs && p.runs.length > 0 ? p.runs : [{ text: p.text }]} />
          </h3>
        ))}
      </>
    );
  }
  return <RichText text={text} className={`transcript__text transcript__text--${style}`} />;
}

/** Speaker notes: plain text, paragraphs separated by blank lines. */
function SpeakerNotes({ notes }: { notes: string }) {
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
