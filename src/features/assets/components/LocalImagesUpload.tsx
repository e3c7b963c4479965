import { type FormEvent, useRef, useState } from "react";
import type { LocalImage } from "../../../document/markdown";
import { FormattedMessage } from "../../../i18n/intl";
import type { MessageId } from "../../../i18n/locales";
import { useSession } from "../../../ui/session";
import { UploadStatus } from "./ImageUploadStatus";
import { ImageUploadFailure, placeImage, uploadImage, writtenName } from "./image-upload";
import "./image-upload.css";

type RowState =
  | { kind: "idle" }
  | { kind: "uploading" }
  | { kind: "placed" }
  | { kind: "failed"; messageId: MessageId; values: Record<string, string | number> };

/**
 * Issue 28 item 7: the image files a deck's Markdown names by a relative path (`tide-chart.png`),
 * offered for upload where the import's warning says they aren't shown. Each upload goes to
 * /api/assets, then takes the file's place in the Markdown (/api/presentations/{oid}/images), so
 * the image shows on its slide. Before hydration the buttons do nothing harmful.
 */
export function LocalImagesUpload({ oid, images }: { oid: string; images: readonly LocalImage[] }) {
  if (images.length === 0) return null;
  return (
    <section className="local-images" aria-labelledby="local-images-title">
      <h3 id="local-images-title">
        <FormattedMessage id="localImages.title" />
      </h3>
      <p className="local-images__lead">
        <FormattedMessage id="localImages.lead" />
      </p>
      <ul className="local-images__list">
        {images.map((image, index) => (
          <LocalImageRow key={image.src} oid={oid} image={image} index={index} />
        ))}
      </ul>
    </section>
  );
}

function LocalImageRow({ oid, image, index }: { oid: string; image: LocalImage; index: number }) {
  const { csrfToken } = useSession();
  const [state, setState] = useState<RowState>({ kind: "idle" });
  const fileInput = useRef<HTMLInputElement>(null);
  const id = `local-image-${index}`;
  const name = writtenName(image.src);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setState({ kind: "failed", messageId: "localImages.choose", values: { name } });
      return;
    }
    setState({ kind: "uploading" });
    try {
      const uploaded = await uploadImage(file, csrfToken);
      await placeImage(oid, image.src, uploaded.url, csrfToken);
      setState({ kind: "placed" });
    } catch (error) {
      const failure = error instanceof ImageUploadFailure ? error : new ImageUploadFailure("assets.error.other");
      setState({ kind: "failed", messageId: failure.messageId, values: failure.values });
    }
  };

  const placed = state.kind === "placed";
  return (
    <li className="local-images__item">
      <form className="image-upload" onSubmit={submit} aria-describedby={`${id}-status`}>
        <div className="field">
          <label htmlFor={id}>
            <FormattedMessage id="localImages.file" values={{ name, slide: image.slide }} />
          </label>
          <input
            id={id}
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            disabled={placed}
          />
        </div>
        <button type="submit" className="button" disabled={state.kind === "uploading" || placed}>
          <FormattedMessage id="localImages.upload" values={{ name }} />
        </button>
        <UploadStatus
          id={`${id}-status`}
          progress={
            <>
              {state.kind === "uploading" ? <FormattedMessage id="assets.uploading" values={{ name }} /> : null}
              {placed ? <FormattedMessage id="localImages.placed" values={{ name, slide: image.slide }} /> : null}
            </>
          }
          failure={state.kind === "failed" ? state : null}
        />
      </form>
    </li>
  );
}
