import { clampProgress, PROGRESS_STROKE_WIDTH } from "../../player-rules";

/** Spec §2 loading overlay: a circular indicator driven by the load percentage (clamped, §5). */
export function CircularProgress({
  percent,
  size,
  strokeWidth = PROGRESS_STROKE_WIDTH,
  label,
}: {
  percent: number;
  size: number;
  strokeWidth?: number;
  label: string;
}) {
  const value = clampProgress(percent);
  const radius = (size - strokeWidth) / 2;
  const circumference = 2 * Math.PI * radius;
  // The track and the bar over it: one ring.
  const ring = { cx: size / 2, cy: size / 2, r: radius, strokeWidth, fill: "none" };
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
      style={{ width: size, height: size }}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true" focusable="false">
        <circle className="progress__track" {...ring} />
        <circle
          className="progress__bar"
          {...ring}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - value / 100)}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
        />
      </svg>
      <span className="progress__value" aria-hidden="true">
        {Math.round(value)}%
      </span>
    </div>
  );
}
