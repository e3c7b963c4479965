import { useEffect, useRef, useState } from "react";
import { FormattedNumber, useIntl } from "../../../i18n/intl";
import "./like-button.css";

/** Spec §9: the unliked (broken heart) animation lasts 2 s; the error shake about 500 ms. */
export const UNLIKED_ANIMATION_MS = 2000;
export const ERROR_SHAKE_MS = 500;

export type LikeAnimation = "default" | "liked" | "unliked" | "error";

export interface LikeButtonProps {
  oid: string;
  /** Spec §4: nothing renders when likesCount is undefined. */
  likesCount: number | undefined;
  hasLiked: boolean;
  isAuthenticated: boolean;
  /** Spec §4: a logged-out click calls this with the oid and does nothing else. */
  onLoggedOutLike: (oid: string) => void;
  /** Makes the call; rejects on failure. */
  sendLike: (liked: boolean) => Promise<void>;
}

/** Spec §4 Like button: optimistic like and unlike, reverted with a shake when the call fails. */
export function LikeButton(props: LikeButtonProps) {
  if (props.likesCount === undefined) return null;
  // Spec §4: the state resets when the oid changes.
  return <LikeButtonState key={props.oid} {...props} likesCount={props.likesCount} />;
}

function LikeButtonState({
  oid,
  likesCount,
  hasLiked,
  isAuthenticated,
  onLoggedOutLike,
  sendLike,
}: LikeButtonProps & { likesCount: number }) {
  const intl = useIntl();
  const [liked, setLiked] = useState(hasLiked);
  const [count, setCount] = useState(likesCount);
  const [animation, setAnimation] = useState<LikeAnimation>("default");
  const [pending, setPending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const animate = (next: LikeAnimation, resetAfterMs: number | null) => {
    if (timer.current) clearTimeout(timer.current);
    setAnimation(next);
    timer.current = resetAfterMs === null ? null : setTimeout(() => setAnimation("default"), resetAfterMs);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onClick = async () => {
    if (!isAuthenticated) {
      onLoggedOutLike(oid);
      return;
    }
    if (pending) return;
    const wasLiked = liked;
    const previousCount = count;
    setPending(true);
    setLiked(!wasLiked);
    setCount(wasLiked ? previousCount - 1 : previousCount + 1);
    animate(wasLiked ? "unliked" : "liked", wasLiked ? UNLIKED_ANIMATION_MS : null);
    try {
      await sendLike(!wasLiked);
    } catch {
      setLiked(wasLiked);
      setCount(previousCount);
      animate("error", ERROR_SHAKE_MS);
    } finally {
      setPending(false);
    }
  };

  return (
    <button
      type="button"
      className={`like-button like-button--${animation}${liked ? " like-button--on" : ""}`}
      aria-pressed={liked}
      data-animation={animation}
      // Issue 12: a signed-out visitor learns before the click why it leads to sign-up (a tooltip,
      // and the button's accessible description).
      title={isAuthenticated ? undefined : intl.formatMessage({ id: "likes.signUpToLike" })}
      onClick={() => void onClick()}
    >
      <svg
        className="like-button__icon"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
      >
        {animation === "unliked" ? (
          // Spec §4: the unliked animation shows a broken heart.
          <path
            d="M12 21 10.6 19.7C5.4 15 2 11.9 2 8.1 2 5 4.4 2.6 7.5 2.6c1.3 0 2.6.4 3.6 1.2L9.5 8l3 2-2 4 3.5-4-3-2 1.7-4.1c.9-.6 2-1 3.3-1C19.6 2.9 22 5.3 22 8.4c0 3.8-3.4 6.9-8.6 11.6z"
            fill="currentColor"
          />
        ) : (
          <path
            d="M12 21.35 10.55 20.03C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54z"
            fill={liked ? "currentColor" : "none"}
            stroke="currentColor"
            strokeWidth="2"
          />
        )}
      </svg>
      {/* The name is read from the content, so it includes the visible count (WCAG 2.5.3). */}
      <span className="visually-hidden">{intl.formatMessage({ id: "likes.like" })} </span>
      <span className="like-button__count">
        <FormattedNumber value={count} />
      </span>
      <span className="visually-hidden"> {intl.formatMessage({ id: "likes.countSuffix" }, { count })}</span>
    </button>
  );
}
