/**
 * A 24-unit icon path (Material Design icons, Apache 2.0) drawn in the text colour. Hidden from
 * assistive technology: the control it sits in carries the name.
 */
export function Icon({ path, size = 20, className }: { path: string; size?: number; className?: string }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={path} fill="currentColor" />
    </svg>
  );
}
