/** Spec §3 Avatar: initials on a palette colour. Sizes of §9: 42 in detail view, 36 in the overlay. */
export const AVATAR_SIZE = { detail: 42, overlay: 36 } as const;

export function Avatar({ initials, color, size }: { initials: string; color: string; size: number }) {
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, backgroundColor: color, fontSize: Math.round(size * 0.4) }}
    >
      {initials}
    </span>
  );
}
