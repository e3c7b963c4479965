import { type ClipboardEvent, type DragEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { Field as FormField, FormNotice, MessageLabel } from "../../../ui/Form";
import { LinkButton } from "../../../ui/LinkButton";
import { SiteLayout } from "../../../ui/SiteLayout";
import { CsrfField, useSession } from "../../../ui/session";
import { ImageUploadStatus } from "../../assets/components/ImageUploadStatus";
import { imageFilesIn, imageMarkdown, insertLine, useImageUpload } from "../../assets/components/image-upload";
import { ImportDropZone } from "../../pdf-import/components/ImportDropZone";
import { ImportWarnings } from "../../presentation/components/ImportWarnings";
import {
  COMMENTING_HASH,
  type EditorField,
  type EditorForm,
  type EditorMessage,
  type EditorPageData,
  PRIVACY_CHOICES,
} from "../page-data";
import { CommentingMode } from "./CommentingMode";
import { SlidePreview } from "./SlidePreview";
import "./editor.css";

type Mode = "editor" | "commenting";

/** The hash that brings an editor back from commenting mode without reloading the page. */
const EDITING_HASH = "#edit";
/** The header's Save button submits the form from outside it. */
const EDITOR_FORM_ID = "editor-form";

function Message({ message }: { message: EditorMessage }) {
  return <FormattedMessage id={message.id} values={message.values} />;
}

/**
 * The editor page (product brief, "The editor"). The server can't see `#present`: it renders
 * the editor for editors, and the page switches to commenting mode after hydration when the
 * address asks for it (so the first render matches the server's). Commenters only ever get
 * commenting mode.
 */
export function EditorPage({ data }: { data: EditorPageData }) {
  const canEdit = data.form !== null;
  const [mode, setMode] = useState<Mode>(canEdit && !data.startInCommenting ? "editor" : "commenting");
  const headingRef = useRef<HTMLHeadingElement>(null);
  const switched = useRef(false);

  useEffect(() => {
    if (!canEdit) return;
    const follow = (fromNavigation: boolean) => {
      const next: Mode = window.location.hash === COMMENTING_HASH ? "commenting" : "editor";
      setMode(next);
      switched.current = fromNavigation;
    };
    if (!data.startInCommenting) follow(false);
    const onHashChange = () => follow(true);
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [canEdit, data.startInCommenting]);

  // Switching modes by a link moves focus to the new heading, so keyboard and screen reader users follow.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the mode changes
  useEffect(() => {
    if (switched.current) headingRef.current?.focus();
  }, [mode]);

  return (
    <SiteLayout>
      <div className={`editor editor--${mode}`} data-editor-mode={mode}>
        <div className="editor__head">
          <div className="editor__heading">
            <p className="editor__eyebrow">
              <FormattedMessage id={mode === "editor" ? "editor.heading.edit" : "editor.heading.comment"} />
            </p>
            <h1 ref={headingRef} tabIndex={-1}>
              {data.title}
            </h1>
          </div>
          <div className="editor__actions">
            {canEdit ? <ModeSwitch mode={mode} /> : null}
            <LinkButton href={data.viewUrl} message="editor.viewPresentation" />
            {mode === "editor" && canEdit ? (
              <button type="submit" form={EDITOR_FORM_ID} className="button button--primary">
                <FormattedMessage id="editor.save" />
              </button>
            ) : null}
          </div>
        </div>
        {data.notice ? (
          <FormNotice kind="success">
            <Message message={data.notice} />
          </FormNotice>
        ) : null}
        <ImportWarnings warnings={data.importWarnings} localImages={data.localImages} oid={data.oid} />
        {/* Both stay mounted for editors, so unsaved edits survive a look at the comments. */}
        {data.form ? (
          <div hidden={mode !== "editor"}>
            <EditorFormView form={data.form} data={data} />
            {/* Issue 10, item 4: a PDF in place of the slides (a form of its own, outside the editor's). */}
            <ImportDropZone action="/api/imports/pdf" replaceOid={data.oid} />
          </div>
        ) : null}
        <div hidden={mode !== "commenting"}>
          <CommentingMode data={data.commenting} editorPath={data.editorPath} />
        </div>
      </div>
    </SiteLayout>
  );
}

function ModeSwitch({ mode }: { mode: Mode }) {
  const intl = useIntl();
  return (
    <nav className="mode-switch" aria-label={intl.formatMessage({ id: "editor.modes.label" })}>
      <a className="mode-switch__link" href={EDITING_HASH} aria-current={mode === "editor" ? "page" : undefined}>
        <FormattedMessage id="editor.modes.edit" />
      </a>
      <a className="mode-switch__link" href={COMMENTING_HASH} aria-current={mode === "commenting" ? "page" : undefined}>
        <FormattedMessage id="editor.modes.comment" />
      </a>
    </nav>
  );
}

function Field({
  name,
  label,
  hint,
  error,
  children,
}: {
  name: EditorField;
  label: ReactNode;
  hint?: ReactNode;
  error?: EditorMessage;
  children: (describedBy: string | undefined, invalid: true | undefined) => ReactNode;
}) {
  return (
    <FormField id={`editor-${name}`} label={label} hint={hint} error={error ? <Message message={error} /> : undefined}>
      {(control) => children(control["aria-describedby"], control["aria-invalid"])}
    </FormField>
  );
}

/**
 * Issue 28: who reads the speaker notes, chosen where they are written. The owner chooses (saved
 * with the form); an editor is told the choice.
 */
function NotesChoiceField({ form }: { form: EditorForm }) {
  const intl = useIntl();
  if (!form.canChangePrivacy) {
    return (
      <p className="field__hint" data-testid="notes-choice">
        <FormattedMessage
          id={form.notes === "public" ? "editor.notes.publicOwnerOnly" : "editor.notes.privateOwnerOnly"}
        />
      </p>
    );
  }
  return (
    <div className="field" data-testid="notes-choice">
      <MessageLabel htmlFor="editor-notes" message="editor.notes.label" />
      <p id="editor-notes-hint" className="field__hint">
        <FormattedMessage id="editor.notes.hint" />
      </p>
      <select id="editor-notes" name="notes" defaultValue={form.notes} aria-describedby="editor-notes-hint">
        <option value="private">{intl.formatMessage({ id: "editor.notes.private" })}</option>
        <option value="public">{intl.formatMessage({ id: "editor.notes.public" })}</option>
      </select>
    </div>
  );
}

function EditorFormView({ form, data }: { form: EditorForm; data: EditorPageData }) {
  const intl = useIntl();
  const [markdown, setMarkdown] = useState(form.values.markdown);
  const markdownRef = useRef<HTMLTextAreaElement>(null);
  const imagePicker = useRef<HTMLInputElement>(null);
  const { csrfToken } = useSession();
  const images = useImageUpload(csrfToken);

  // Issue 10, item 5: an image pasted, dropped or picked is uploaded, then its Markdown goes on
  // a line of its own at the cursor.
  const addImages = async (files: File[]) => {
    for (const file of files) {
      const uploaded = await images.upload(file);
      const field = markdownRef.current;
      if (!uploaded || !field) continue;
      const line = imageMarkdown(uploaded.alt, uploaded.image.url);
      const next = insertLine(field.value, field.selectionStart, field.selectionEnd, line);
      setMarkdown(next.text);
      requestAnimationFrame(() => {
        field.focus();
        field.setSelectionRange(next.cursor, next.cursor);
      });
    }
  };
  const onImageTransfer = (event: ClipboardEvent<HTMLTextAreaElement> | DragEvent<HTMLTextAreaElement>) => {
    const files = imageFilesIn("clipboardData" in event ? event.clipboardData : event.dataTransfer);
    if (files.length === 0) return;
    event.preventDefault();
    if (event.type === "drop") {
      // The image lands where it was dropped when the browser can say where that is.
      markdownRef.current?.focus();
    }
    void addImages(files);
  };
  const { values, errors } = form;
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <form method="post" action={data.editorPath} className="form editor-form" id={EDITOR_FORM_ID}>
      <CsrfField />
      {hasErrors ? (
        <FormNotice kind="error">
          <FormattedMessage id="editor.notice.invalid" />
        </FormNotice>
      ) : null}
      <div className="editor-form__grid">
        <div className="editor-form__main">
          <section className="panel editor-panel" aria-labelledby="editor-slides-title">
            <h2 id="editor-slides-title">
              <FormattedMessage id="editor.slides" />
            </h2>
            {form.pageDeck ? (
              <p className="editor-form__page-deck" data-testid="page-deck">
                <FormattedMessage id="editor.pageDeck" />
              </p>
            ) : null}
            <div hidden={form.pageDeck}>
              <Field
                name="markdown"
                label={<FormattedMessage id="editor.field.markdown" />}
                hint={<FormattedMessage id="editor.field.markdownHint" />}
                error={errors.markdown}
              >
                {(describedBy, invalid) => (
                  <textarea
                    id="editor-markdown"
                    name="markdown"
                    ref={markdownRef}
                    className="editor-form__markdown"
                    value={markdown}
                    onChange={(event) => setMarkdown(event.target.value)}
                    onPaste={onImageTransfer}
                    onDrop={onImageTransfer}
                    rows={18}
                    spellCheck
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  />
                )}
              </Field>
              <NotesChoiceField form={form} />
              <div className="editor-form__images">
                <button
                  type="button"
                  className="button"
                  onClick={() => imagePicker.current?.click()}
                  aria-describedby="editor-images-hint"
                >
                  <FormattedMessage id="editor.image.add" />
                </button>
                <input
                  ref={imagePicker}
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
                  hidden
                  tabIndex={-1}
                  aria-hidden="true"
                  onChange={(event) => {
                    const files = [...(event.target.files ?? [])];
                    event.target.value = "";
                    void addImages(files);
                  }}
                />
                <p id="editor-images-hint" className="field__hint">
                  <FormattedMessage id="editor.image.hint" />
                </p>
                <ImageUploadStatus state={images.state} id="editor-images-status" />
              </div>
            </div>
          </section>
          <section className="panel editor-panel" aria-labelledby="editor-details-title">
            <h2 id="editor-details-title">
              <FormattedMessage id="editor.details" />
            </h2>
            <Field name="title" label={<FormattedMessage id="editor.field.title" />} error={errors.title}>
              {(describedBy, invalid) => (
                <input
                  id="editor-title"
                  name="title"
                  type="text"
                  defaultValue={values.title}
                  required
                  maxLength={200}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            <Field
              name="description"
              label={<FormattedMessage id="editor.field.description" />}
              hint={<FormattedMessage id="editor.field.descriptionHint" />}
              error={errors.description}
            >
              {(describedBy, invalid) => (
                <textarea
                  id="editor-description"
                  name="description"
                  defaultValue={values.description}
                  rows={4}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            {form.canChangePrivacy ? (
              <Field name="privacy" label={<FormattedMessage id="editor.field.privacy" />} error={errors.privacy}>
                {(describedBy, invalid) => (
                  <select
                    id="editor-privacy"
                    name="privacy"
                    defaultValue={values.privacy}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  >
                    {PRIVACY_CHOICES.map((privacy) => (
                      <option key={privacy} value={privacy}>
                        {intl.formatMessage({ id: `privacy.${privacy}` as MessageId })} —{" "}
                        {intl.formatMessage({ id: `privacy.${privacy}.hint` as MessageId })}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ) : (
              <p className="field__hint editor-form__privacy-note">
                <FormattedMessage
                  id="editor.field.privacyOwnerOnly"
                  values={{ privacy: intl.formatMessage({ id: `privacy.${data.privacy}` as MessageId }) }}
                />
              </p>
            )}
            <Field
              name="tags"
              label={<FormattedMessage id="editor.field.tags" />}
              hint={<FormattedMessage id="editor.field.tagsHint" />}
              error={errors.tags}
            >
              {(describedBy, invalid) => (
                <input
                  id="editor-tags"
                  name="tags"
                  type="text"
                  defaultValue={values.tags}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
          </section>
        </div>
        <div className="editor-form__side" hidden={form.pageDeck}>
          <SlidePreview
            markdown={markdown}
            schemaVersion={data.schemaVersion}
            theme={data.theme}
            initialMarkdown={values.markdown}
            initialPreview={form.preview}
          />
        </div>
      </div>
      <div className="editor-form__bar">
        <button type="submit" className="button button--primary">
          <FormattedMessage id="editor.save" />
        </button>
      </div>
    </form>
  );
}
