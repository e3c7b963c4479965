import { FormattedDate, FormattedMessage, useIntl } from "../../../i18n/intl";
import { Avatar } from "../../../ui/Avatar";
import { ButtonForm, MessageLabel, PostForm, SubmitButton } from "../../../ui/Form";
import { Player } from "../../presentation/components/player/Player";
import { COMMENT_MAX_LENGTH, type CommentingData, type CommentView } from "../page-data";

/** Comment avatars: a little smaller than the view page's detail avatar. */
const COMMENT_AVATAR_SIZE = 32;

function CommentItem({ comment, editorPath }: { comment: CommentView; editorPath: string }) {
  const intl = useIntl();
  return (
    <li className="comment">
      <Avatar initials={comment.authorInitials} color={comment.authorColor} size={COMMENT_AVATAR_SIZE} />
      <div className="comment__main">
        <p className="comment__meta">
          <span className="comment__author">{comment.authorName}</span>
          <time className="comment__time" dateTime={comment.createdAt}>
            <FormattedDate
              value={comment.createdAt}
              year="numeric"
              month="short"
              day="numeric"
              hour="numeric"
              minute="2-digit"
              timeZone="UTC"
              timeZoneName="short"
            />
          </time>
        </p>
        <p className="comment__body">{comment.body}</p>
        {comment.canDelete ? (
          <ButtonForm
            action={`${editorPath}comments/${comment.id}/delete`}
            className="comment__delete"
            variant="danger-quiet"
            label={intl.formatMessage({ id: "editor.comments.deleteLabel" }, { name: comment.authorName })}
            message="editor.comments.delete"
          />
        ) : null}
      </div>
    </li>
  );
}

/** Commenting mode (product brief, "The editor"): the player, and the comments beside it, newest first. */
export function CommentingMode({ data, editorPath }: { data: CommentingData; editorPath: string }) {
  const intl = useIntl();
  const describedBy = ["comment-hint", data.draftError ? "comment-error" : null].filter(Boolean).join(" ");
  return (
    <div className="commenting">
      <section className="commenting__stage" aria-label={intl.formatMessage({ id: "editor.stage.label" })}>
        <Player {...data.player} />
      </section>
      <section className="commenting__panel" aria-labelledby="comments-title">
        <div className="commenting__head">
          <h2 id="comments-title">
            <FormattedMessage id="editor.comments.title" />
          </h2>
          <p className="commenting__count">
            <FormattedMessage id="editor.comments.count" values={{ count: data.commentCount }} />
          </p>
        </div>
        <PostForm action={`${editorPath}comments`} className="form comment-form">
          <div className={`field${data.draftError ? " field--error" : ""}`}>
            <MessageLabel htmlFor="comment-body" message="editor.comments.field" />
            <textarea
              id="comment-body"
              name="body"
              rows={3}
              required
              maxLength={COMMENT_MAX_LENGTH}
              defaultValue={data.draft}
              aria-invalid={data.draftError ? true : undefined}
              aria-describedby={describedBy}
            />
            <p id="comment-hint" className="field__hint">
              <FormattedMessage id="editor.comments.hint" values={{ max: COMMENT_MAX_LENGTH }} />
            </p>
            {data.draftError ? (
              <p id="comment-error" className="field__error">
                <FormattedMessage id={data.draftError.id} values={data.draftError.values} />
              </p>
            ) : null}
          </div>
          <SubmitButton message="editor.comments.submit" />
        </PostForm>
        {data.comments.length === 0 ? (
          <p className="commenting__empty">
            <FormattedMessage id="editor.comments.empty" />
          </p>
        ) : (
          <ol className="comment-list">
            {data.comments.map((comment) => (
              <CommentItem key={comment.id} comment={comment} editorPath={editorPath} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
