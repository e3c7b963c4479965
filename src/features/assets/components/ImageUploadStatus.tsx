import type { ReactNode } from "react";
import { FormattedMessage } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import type { UploadState } from "./image-upload";
import "./image-upload.css";

/**
 * Where an upload stands, in words: a polite live region (read out when it changes) for
 * progress and success, and an alert for a failure.
 */
export function UploadStatus({
  id,
  progress,
  failure,
}: {
  id: string;
  progress: ReactNode;
  failure: { messageId: MessageId; values: Record<string, string | number> } | null;
}) {
  return (
    <div id={id} className="image-upload__status">
      <p role="status" aria-live="polite" className="image-upload__progress">
        {progress}
      </p>
      {failure ? (
        <p role="alert" className="field__error">
          <FormattedMessage id={failure.messageId} values={failure.values} />
        </p>
      ) : null}
    </div>
  );
}

/** UploadStatus for the uploads of useImageUpload. */
export function ImageUploadStatus({ state, id }: { state: UploadState; id: string }) {
  return (
    <UploadStatus
      id={id}
      progress={
        <>
          {state.kind === "uploading" ? <FormattedMessage id="assets.uploading" values={{ name: state.name }} /> : null}
          {state.kind === "done" ? <FormattedMessage id="assets.uploaded" /> : null}
        </>
      }
      failure={state.kind === "failed" ? state : null}
    />
  );
}
