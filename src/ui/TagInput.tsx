import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import { KEY_CODES } from "../lib/constants";
import "./styles/tag-input.css";

/** Tags as the form sends them: comma-separated (spec §3 tags are a comma-separated string). */
export function joinTags(tags: readonly string[]): string {
  return tags.join(", ");
}

/** The tags in a typed or pasted text: split on commas, trimmed, without empties. */
export function splitTags(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

/** What a key does in the tag field (spec §9 key codes: comma 188 and enter 13 add, escape 27 clears). */
export function tagKeyAction(event: { key: string; keyCode?: number }): "add" | "clear" | null {
  if (event.key === "," || event.keyCode === KEY_CODES.comma) return "add";
  if (event.key === "Enter" || event.keyCode === KEY_CODES.enter) return "add";
  if (event.key === "Escape" || event.keyCode === KEY_CODES.escape) return "clear";
  return null;
}

/**
 * A field of tags. Typing a tag and pressing comma (or Enter) turns it into a chip, each with its
 * own remove button; Escape clears what is being typed. The form gets the tags comma-separated
 * under `name`, what is still being typed included. Before the page's script runs it is a plain
 * text field of comma-separated tags, which works the same for the server.
 */
export function TagInput({ id, name, defaultTags }: { id: string; name: string; defaultTags: readonly string[] }) {
  const intl = useIntl();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [tags, setTags] = useState<string[]>(() => [...defaultTags]);
  const [draft, setDraft] = useState("");
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => setEnhanced(true), []);

  if (!enhanced) return <input id={id} name={name} type="text" defaultValue={joinTags(defaultTags)} />;

  const add = (text: string) => {
    const known = new Set(tags.map((tag) => tag.toLowerCase()));
    const added = splitTags(text).filter((tag) => {
      const key = tag.toLowerCase();
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
    setDraft("");
    if (added.length === 0) return;
    setTags([...tags, ...added]);
    setAnnouncement(intl.formatMessage({ id: "tagInput.added" }, { tags: joinTags(added) }));
  };

  const remove = (tag: string) => {
    setTags(tags.filter((other) => other !== tag));
    setAnnouncement(intl.formatMessage({ id: "tagInput.removed" }, { tag }));
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const action = tagKeyAction(event);
    if (action === "add") {
      // Enter on an empty field submits the form, as in any other field.
      if (event.key !== "," && event.keyCode !== KEY_CODES.comma && draft.trim() === "") return;
      event.preventDefault();
      add(draft);
    } else if (action === "clear" && draft !== "") {
      event.preventDefault();
      setDraft("");
    }
  };

  const value = joinTags([...tags, ...splitTags(draft)]);
  return (
    <div className="tag-input">
      {tags.length > 0 ? (
        <ul className="tag-input__tags chip-row">
          {tags.map((tag) => (
            <li key={tag} className="tag-input__tag">
              <span>{tag}</span>
              <button
                type="button"
                className="tag-input__remove"
                aria-label={intl.formatMessage({ id: "tagInput.remove" }, { tag })}
                onClick={() => remove(tag)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        type="text"
        value={draft}
        aria-describedby={hintId}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {/* What is still being typed is sent too; it isn't made a chip on blur, which would move the
          buttons under a pointer on its way to Save. */}
      <input type="hidden" name={name} value={value} />
      <p id={hintId} className="field__hint">
        <FormattedMessage id="tagInput.hint" />
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
