import { FormattedMessage } from "../../../i18n/intl";

/** The owner's likes, shown as a figure: nobody likes their own deck (issue 12). */
export function OwnLikes({ count }: { count: number }) {
  return (
    <span className="toolbar__likes">
      <svg className="toolbar__likes-icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 21.35 10.55 20.03C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54z"
          fill="currentColor"
        />
      </svg>
      <FormattedMessage id="presentation.likes" values={{ count }} />
    </span>
  );
}
