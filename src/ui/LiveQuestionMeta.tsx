import { FormattedMessage } from "../i18n/intl";

/**
 * Issue 35: a live question's votes and its answered and hidden tags, as the presenter's panel and
 * the owner's analytics (after the session) show them, each with its own classes.
 */
export function LiveQuestionMeta({
  question,
  className,
  tagClassName,
}: {
  question: { votes: number; answered: boolean; hidden: boolean };
  className: string;
  tagClassName: string;
}) {
  return (
    <p className={className}>
      <FormattedMessage id="live.questions.votes" values={{ votes: question.votes }} />
      {question.answered ? (
        <span className={tagClassName}>
          <FormattedMessage id="live.questions.answered" />
        </span>
      ) : null}
      {question.hidden ? (
        <span className={tagClassName}>
          <FormattedMessage id="live.panel.hidden" />
        </span>
      ) : null}
    </p>
  );
}
