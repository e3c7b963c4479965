import type { Text, Topic } from "../document/schema";

/**
 * One topic drawn with the browser's own layout: real, selectable text, sized relative to
 * the frame (container query units), so it reads the same at every width.
 */
export function SlidePoster({ topic, label }: { topic: Topic; label: string }) {
  return (
    <figure
      className="slide"
      aria-label={label}
      style={topic.background ? { background: topic.background.color } : undefined}
    >
      <div className="slide__content">
        {topic.texts.map((text) => (
          <SlideText key={text.id} text={text} topicWidth={topic.width} />
        ))}
      </div>
    </figure>
  );
}

function SlideText({ text, topicWidth }: { text: Text; topicWidth: number }) {
  const style = text.styleClasses[0] ?? "body";
  const bullets = text.paragraphs.every((p) => p.listType === "BULLET");
  // Font sizes are canvas units; 100cqw is the frame's width.
  const size = (fontSize: number) => `${((fontSize / topicWidth) * 100).toFixed(3)}cqw`;
  if (bullets) {
    return (
      <ul className={`slide__text slide__text--${style}`}>
        {text.paragraphs.map((p, index) => (
          // Paragraphs have no ids of their own; their order is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <li key={index} style={{ fontSize: size(p.biggestFontSize) }}>
            {p.text}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={`slide__text slide__text--${style}`}>
      {text.paragraphs.map((p, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <p key={index} style={{ fontSize: size(p.biggestFontSize) }}>
          {p.text}
        </p>
      ))}
    </div>
  );
}
