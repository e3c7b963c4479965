import { type FormEvent, useRef, useState } from "react";
import { FormattedMessage } from "../../../i18n/intl";
import { FormSection, MessageLabel } from "../../../ui/Form";
import { useSession } from "../../../ui/session";
import { ImageUploadStatus } from "./ImageUploadStatus";
import { imageMarkdown, useImageUpload } from "./image-upload";
import "./image-upload.css";

/**
 * The dashboard's Images section (issue 10, item 5): upload an image, get the Markdown that
 * shows it on a slide. The upload is a fetch from the hydrated page; before hydration the
 * button does nothing harmful (the form posts nowhere).
 */
export function ImagesSection() {
  const { csrfToken } = useSession();
  const { state, upload } = useImageUpload(csrfToken);
  const fileInput = useRef<HTMLInputElement>(null);
  const [missingFile, setMissingFile] = useState(false);
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const snippet = state.kind === "done" ? imageMarkdown(state.alt || "description", state.image.url) : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    setMissingFile(!file);
    setCopied(null);
    if (file) await upload(file);
  };

  const copy = async () => {
    if (!snippet) return;
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };

  return (
    <FormSection
      id="images-title"
      title={<FormattedMessage id="dashboard.images.title" />}
      lead={<FormattedMessage id="dashboard.images.lead" />}
    >
      <form className="form image-upload" onSubmit={submit} aria-describedby="images-status">
        <div className="field">
          <MessageLabel htmlFor="images-file" message="dashboard.images.file" />
          <input
            id="images-file"
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
          />
        </div>
        <button type="submit" className="button button--primary" disabled={state.kind === "uploading"}>
          <FormattedMessage id="dashboard.images.upload" />
        </button>
        <ImageUploadStatus state={state} id="images-status" />
        {missingFile ? (
          <p role="alert" className="field__error">
            <FormattedMessage id="dashboard.images.choose" />
          </p>
        ) : null}
      </form>
      {snippet ? (
        <div className="field image-upload__snippet">
          <MessageLabel htmlFor="images-snippet" message="dashboard.images.snippet" />
          <input id="images-snippet" type="text" readOnly value={snippet} onFocus={(event) => event.target.select()} />
          <button type="button" className="button" onClick={() => void copy()}>
            <FormattedMessage id="dashboard.images.copy" />
          </button>
          <p role="status" aria-live="polite">
            {copied ? (
              <FormattedMessage id={`dashboard.images.${copied === "copied" ? "copied" : "copyFailed"}`} />
            ) : null}
          </p>
        </div>
      ) : null}
    </FormSection>
  );
}
