import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../i18n/intl";
import { LOCALE_NAMES, LOCALES } from "../i18n/locales";
import { Icon } from "./Icon";
import { chooseLanguage } from "./LanguagePicker";
import { PostForm } from "./PostForm";

/** The focusable entries of an open menu, in order (links and buttons that are shown). */
function menuItems(list: HTMLElement | null): HTMLElement[] {
  if (!list) return [];
  return [...list.querySelectorAll<HTMLElement>("a[href], button")].filter(
    (element) => element.closest("[hidden]") === null,
  );
}

/**
 * Every page's account menu for a signed-in person (spec §2 "a dropdown opened by clicking the
 * viewer's name", issue 12): the name, My dashboard, Account settings, Language and Log out (spec R2.24 names).
 * A disclosure: the button says whether it is open; an outside click, Escape or Tab out of it
 * closes it (Escape gives focus back to the button); ↑ ↓ Home End move between its entries.
 */
export function AccountMenu({ name, clickSource }: { name: string; clickSource?: string }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [languagesOpen, setLanguagesOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const focusFirst = useRef(false);
  const menuId = useId();
  const languagesId = useId();

  useEffect(() => {
    if (!open) {
      setLanguagesOpen(false);
      return;
    }
    if (focusFirst.current) {
      focusFirst.current = false;
      menuItems(listRef.current)[0]?.focus();
    }
    const onPointer = (event: globalThis.MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocus);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocus);
    };
  }, [open]);

  const onButtonClick = (event: MouseEvent<HTMLButtonElement>) => {
    // A keyboard press (no pointer: detail 0) opens the menu onto its first entry.
    if (!open && event.detail === 0) focusFirst.current = true;
    setOpen((value) => !value);
  };
  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" && !open) {
      event.preventDefault();
      focusFirst.current = true;
      setOpen(true);
    }
  };
  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = menuItems(listRef.current);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === "ArrowDown"
        ? (at + 1) % items.length
        : event.key === "ArrowUp"
          ? (at - 1 + items.length) % items.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? items.length - 1
              : null;
    if (next === null || items.length === 0) return;
    event.preventDefault();
    items[next]?.focus();
  };

  const query = clickSource ? `?click_source=${encodeURIComponent(clickSource)}` : "";
  const current = intl.locale as keyof typeof LOCALE_NAMES;
  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={onButtonClick}
        onKeyDown={onButtonKey}
      >
        {/* A person glyph, not initials: the name must stay whole (issue 11's signed-in page templates
            put the person's name in as one string, and refuse a page that took letters out of it). */}
        <span className="account-menu__avatar" aria-hidden="true">
          <Icon path="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4.4 0-8 2.3-8 5.2V21h16v-1.8c0-2.9-3.6-5.2-8-5.2z" />
        </span>
        <span className="account-menu__name">{name}</span>
        <Icon size={16} path="M7 10l5 5 5-5z" />
      </button>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the links and buttons inside. */}
      <div id={menuId} ref={listRef} className="account-menu__list" hidden={!open} onKeyDown={onListKey}>
        <p className="account-menu__who">
          <FormattedMessage
            id="accountMenu.signedInAs"
            values={{ name: <strong className="account-menu__who-name">{name}</strong> }}
          />
        </p>
        <a className="account-menu__item" href={`/dashboard/next/${query}`}>
          <FormattedMessage id="accountMenu.presentations" />
        </a>
        <a className="account-menu__item" href={`/settings/${query}`}>
          <FormattedMessage id="accountMenu.settings" />
        </a>
        <button
          type="button"
          className="account-menu__item account-menu__language"
          aria-expanded={languagesOpen}
          aria-controls={languagesId}
          onClick={() => setLanguagesOpen((value) => !value)}
        >
          <span>
            <FormattedMessage id="language.label" />
          </span>
          <span className="account-menu__current" lang={current}>
            {LOCALE_NAMES[current] ?? current}
          </span>
        </button>
        <ul
          id={languagesId}
          className="account-menu__languages"
          hidden={!languagesOpen}
          aria-label={intl.formatMessage({ id: "language.label" })}
        >
          {LOCALES.map((locale) => (
            <li key={locale}>
              <button
                type="button"
                className="account-menu__item account-menu__locale"
                lang={locale}
                aria-current={locale === current ? "true" : undefined}
                onClick={() => void chooseLanguage(locale)}
              >
                {LOCALE_NAMES[locale]}
              </button>
            </li>
          ))}
        </ul>
        <PostForm action="/logout" className="account-menu__logout">
          <button type="submit" className="account-menu__item">
            <FormattedMessage id="nav.logOut" />
          </button>
        </PostForm>
      </div>
    </div>
  );
}
