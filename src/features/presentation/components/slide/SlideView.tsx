import type { Text, Topic } from "../../document/schema";

/**
 * How a topic of the canvas is drawn: the one renderer shared by the player, the presenter
 * view and every slide preview (the canvas units of the document, scaled by whoever shows it).
 */
export function TopicView({ topic }: { topic: Topic }) {
  const isFrame = topic.texts.length > 0 || topic.images.length > 0;
  return (
    <div
      className={`topic${isFrame ? " topic--frame" : ""}`}
      style={{
        left: topic.x,
        top: topic.y,
        width: topic.width,
        height: topic.height,
        transform: topic.rotation ? `rotate(${topic.rotation}deg)` : undefined,
        background: topic.background?.color,
      }}
    >
      {isFrame ? (
        <div className="topic__texts" style={{ padding: `${topic.height * 0.08}px ${topic.width * 0.07}px` }}>
          {topic.texts.map((text) => (
            <TextView key={text.id} text={text} />
          ))}
        </div>
      ) : null}
      {topic.images.map((image) => (
        <img
          key={image.id}
          className="topic__image"
          src={image.src}
          alt={image.alt}
          style={{ left: image.x, top: image.y, width: image.width, height: image.height }}
        />
      ))}
      {topic.topics.map((child) => (
        <TopicView key={child.id} topic={child} />
      ))}
    </div>
  );
}

function TextView({ text }: { text: Text }) {
  const style = text.styleClasses[0] ?? "body";
  const className = `slide__text slide__text--${style}`;
  if (text.paragraphs.length > 0 && text.paragraphs.every((p) => p.listType === "BULLET")) {
    return (
      <ul className={className}>
        {text.paragraphs.map((p, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
          <li key={index} style={{ fontSize: p.biggestFontSize }}>
            {p.text}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={className}>
      {text.paragraphs.map((p, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <p key={index} style={{ fontSize: p.biggestFontSize }}>
          {p.text}
        </p>
      ))}
    </div>
  );
}
