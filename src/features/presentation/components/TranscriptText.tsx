import { FormattedMessage } from "react-intl";
import type { Text } from "../document/schema";
import type { Transcript, TranscriptTopic } from "../document/transcript";

/** Spec §9: transcript indentation is 24 px per topic depth. */
export const TRANSCRIPT_INDENT_PX = 24;

/** The transcript's text, server-rendered: search engines and screen readers get the content. */
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
      {topic.topics.map((child) => (
        <TranscriptTopicView key={child.id} topic={child} depth={depth + 1} />
      ))}
    </div>
  );
}

function TranscriptTextView({ text }: { text: Text }) {
  const style = text.styleClasses[0] ?? "body";
  const items = text.paragraphs;
  if (items.length > 0 && items.every((p) => p.listType === "BULLET")) {
    return (
      <ul className={`transcript__text transcript__text--${style}`}>
        {items.map((p, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <li key={index}>{p.text}</li>
        ))}
      </ul>
    );
  }
  return (
    <div className={`transcript__text transcript__text--${style}`}>
      {items.map((p, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <p key={index}>{p.text}</p>
      ))}
    </div>
  );
}
