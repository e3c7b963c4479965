import { FormattedMessage } from "../../../i18n/intl";
import type { UploadState } from "./image-upload";
import "./image-upload.css";

/**
 * Where an upload stands, in words: a polite live region (read out when it changes) for
 * progress and success, and an alert for a failure.
 */
export function ImageUploadStatus({ state, id }: { state: UploadState; id: string }) {
  return (
    <div id={id} className="image-upload__status">
      <p role="status" aria-live="polite" className="image-upload__progress">
        {state.kind === "uploading" ? <FormattedMessage id="assets.uploading" values={{ name: state.name }} /> : null}
        {state.kind === "done" ? <FormattedMessage id="assets.uploaded" /> : null}
      </p>
      {state.kind === "failed" ? (
        <p role="alert" className="field__error">
          <FormattedMessage id={state.messageId} values={state.values} />
        </p>
      ) : null}
    </div>
  );
}
