import { FormattedDate, FormattedMessage } from "../../../i18n/intl";
import { LiveQuestionMeta } from "../../../ui/LiveQuestionMeta";
import type { ManageData } from "../service";

/**
 * Issue 35 item 3: the questions asked in the deck's live sessions, kept with each session and
 * listed here afterwards (most votes first; answered and hidden ones marked). Nothing shows for a
 * deck that was never presented live with questions.
 */
export function LiveQuestionsPanel({ sessions }: { sessions: ManageData["liveQuestions"] }) {
  if (sessions.length === 0) return null;
  return (
    <section className="panel live-questions-panel" aria-labelledby="live-questions-title">
      <h2 id="live-questions-title">
        <FormattedMessage id="live.analytics.heading" />
      </h2>
      {sessions.map((session) => (
        <section key={session.startedAt} className="live-questions-panel__session">
          <h3>
            <FormattedMessage
              id="live.analytics.session"
              values={{
                date: (
                  <time dateTime={session.startedAt}>
                    <FormattedDate value={session.startedAt} dateStyle="long" timeStyle="short" timeZone="UTC" />
                  </time>
                ),
              }}
            />
          </h3>
          {session.questions.length === 0 ? (
            <p>
              <FormattedMessage id="live.analytics.none" />
            </p>
          ) : (
            <ol className="live-questions-panel__list">
              {session.questions.map((question) => (
                <li key={question.id} className="live-questions-panel__question">
                  <p className="live-questions-panel__text">{question.text}</p>
                  <LiveQuestionMeta
                    question={question}
                    className="live-questions-panel__meta"
                    tagClassName="live-questions-panel__tag"
                  />
                </li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </section>
  );
}
