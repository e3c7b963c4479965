import {
  type ChangeEvent,
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { useIntl } from "../../../i18n/intl";
import { SUGGEST_DEBOUNCE_MS, SUGGEST_PATH, type SuggestAnswer } from "../rules";
import "./suggest.css";

/** One choice in the list: a presentation (goes to its view page) or a trending term (runs the search). */
type Suggestion = { kind: "title"; label: string; url: string } | { kind: "term"; label: string };

/** The props the search input takes to be the combobox (WAI-ARIA 1.2, list autocomplete). */
export interface ComboboxInputProps {
  role: "combobox";
  "aria-autocomplete": "list";
  "aria-expanded": boolean;
  "aria-controls": string;
  "aria-activedescendant": string | undefined;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
  onBlur(event: FocusEvent<HTMLInputElement>): void;
}

const suggestionsOf = (answer: SuggestAnswer): Suggestion[] => [
  ...answer.titles.map((title): Suggestion => ({ kind: "title", label: title.title, url: title.url })),
  ...answer.terms.map((term): Suggestion => ({ kind: "term", label: term })),
];

/**
 * Issue 15 item 4: suggestions as you type on a search input. The input stays focused; the
 * active option is `aria-activedescendant`. ↓/↑ open the list and move (wrapping), Home/End go to
 * the first/last option while one is active, Enter picks the active option (else the form
 * submits as before), Escape closes the list (returns false when there was none open, so the
 * caller's own Escape still works), Tab and leaving the input close it. Typing asks the server
 * after a pause, aborting the previous request; a live region says how many suggestions there are.
 * Without JavaScript none of this exists and the form searches as before.
 */
export function useSearchSuggestions({
  inputRef,
  onTerm,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  /** Runs the search for a trending term. */
  onTerm: (term: string) => void;
}): {
  /** Empty until hydrated: the server's markup is a plain search box (no popup without JavaScript). */
  inputProps: ComboboxInputProps | Record<string, never>;
  /** Handles the combobox's keys; true when it did (the caller skips its own handling). */
  onKeyDown(event: KeyboardEvent<HTMLInputElement>): boolean;
  popup: ReactElement;
} {
  const intl = useIntl();
  const id = useId();
  const listId = `${id}-suggestions`;
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  // The combobox exists once scripts run; before (or without) them the input is a search box.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  // The active option stays in view when the list scrolls (long titles, short phones).
  useEffect(() => {
    if (active < 0) return;
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, listId]);

  const close = () => {
    setOpen(false);
    setActive(-1);
    setAnnouncement("");
  };

  const load = (text: string, then?: (found: Suggestion[]) => void) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    fetch(`${SUGGEST_PATH}?q=${encodeURIComponent(text)}`, {
      signal: controller.signal,
      headers: { accept: "application/json" },
      credentials: "same-origin",
    })
      .then((response) => (response.ok ? (response.json() as Promise<SuggestAnswer>) : null))
      .then((answer) => {
        if (controller.signal.aborted || !answer) return;
        // The answer is for what was typed then; typing on has already asked again.
        if ((inputRef.current?.value ?? "") !== text) return;
        const found = suggestionsOf(answer);
        setItems(found);
        setActive(-1);
        if (then) then(found);
        else {
          setOpen(found.length > 0);
          setAnnouncement(found.length > 0 ? intl.formatMessage({ id: "suggest.count" }, { count: found.length }) : "");
        }
      })
      // Aborted, offline or refused: suggestions are a convenience, the form still searches.
      .catch(() => {});
  };

  const openWith = (found: Suggestion[], index: number) => {
    if (found.length === 0) return;
    setOpen(true);
    setActive(index < 0 ? found.length - 1 : index);
    setAnnouncement(intl.formatMessage({ id: "suggest.count" }, { count: found.length }));
  };

  const choose = (item: Suggestion) => {
    close();
    if (item.kind === "title") window.location.assign(item.url);
    else {
      if (inputRef.current) inputRef.current.value = item.label;
      onTerm(item.label);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): boolean => {
    if (event.nativeEvent.isComposing) return false;
    const count = items.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        const down = event.key === "ArrowDown";
        if (!open) {
          clearTimeout(timer.current);
          // Fresh suggestions for what is in the box (the trending terms when it is empty).
          load(event.currentTarget.value, (found) => openWith(found, down ? 0 : -1));
        } else if (count > 0)
          setActive((current) => (down ? (current + 1) % count : (current <= 0 ? count : current) - 1));
        return true;
      }
      case "Home":
      case "End":
        if (!open || active < 0) return false;
        event.preventDefault();
        setActive(event.key === "Home" ? 0 : count - 1);
        return true;
      case "Enter": {
        const item = open ? items[active] : undefined;
        if (!item) return false;
        event.preventDefault();
        choose(item);
        return true;
      }
      case "Escape":
        if (!open) return false;
        event.preventDefault();
        close();
        return true;
      case "Tab":
        if (open) close();
        return false;
      default:
        return false;
    }
  };

  const inputProps: ComboboxInputProps = {
    role: "combobox",
    "aria-autocomplete": "list",
    "aria-expanded": open,
    "aria-controls": listId,
    "aria-activedescendant": open && active >= 0 ? `${listId}-${active}` : undefined,
    onChange(event) {
      const text = event.currentTarget.value;
      clearTimeout(timer.current);
      if (text.trim() === "") {
        inFlight.current?.abort();
        close();
        return;
      }
      timer.current = setTimeout(() => load(text), SUGGEST_DEBOUNCE_MS);
    },
    onBlur(event) {
      // A press on an option keeps the focus in the input (mousedown is prevented below).
      if (!listRef.current?.contains(event.relatedTarget as Node | null)) close();
    },
  };

  const option = (item: Suggestion, index: number) => (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works on the input (aria-activedescendant), as the combobox pattern says.
    <div
      key={`${item.kind}:${item.label}:${index}`}
      id={`${listId}-${index}`}
      role="option"
      tabIndex={-1}
      aria-selected={index === active}
      className={`suggest__option suggest__option--${item.kind}${index === active ? " suggest__option--active" : ""}`}
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => {
        if (index !== active) setActive(index);
      }}
      onClick={() => choose(item)}
    >
      {item.label}
    </div>
  );
  const titles = items.flatMap((item, index) => (item.kind === "title" ? [option(item, index)] : []));
  const terms = items.flatMap((item, index) => (item.kind === "term" ? [option(item, index)] : []));

  const group = (kind: "titles" | "terms", options: ReactElement[]) =>
    options.length > 0 ? (
      // biome-ignore lint/a11y/useSemanticElements: a listbox holds options and groups only (no fieldset).
      <div role="group" aria-labelledby={`${listId}-${kind}`} className="suggest__group">
        <div id={`${listId}-${kind}`} role="presentation" className="suggest__heading">
          {intl.formatMessage({ id: kind === "titles" ? "suggest.titles" : "suggest.terms" })}
        </div>
        {options}
      </div>
    ) : null;

  const popup = (
    <>
      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label={intl.formatMessage({ id: "suggest.label" })}
        className="suggest"
        hidden={!open}
      >
        {group("titles", titles)}
        {group("terms", terms)}
      </div>
      <div role="status" className="visually-hidden">
        {announcement}
      </div>
    </>
  );

  return enhanced ? { inputProps, onKeyDown, popup } : { inputProps: {}, onKeyDown: () => false, popup: <></> };
}
