import { type ComponentType, lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { whenNearScreen } from "./near-screen";

/** A part loaded where shown, and a way to load it ahead (what the browser would on hydrating). */
export type PartLoadedWhereShown<Props> = ComponentType<Props> & { preload(): Promise<void> };

/** Parts loaded where shown that the page drew but whose code hasn't hydrated them yet. */
let partsPending = 0;
const onAllPartsHydrated = new Set<() => void>();

/**
 * Calls `then` once every part loaded where shown that the first render drew has hydrated (at once
 * when none is pending): until then the server's markup of that part shows but doesn't answer (its
 * account menu button would do nothing). PodiumApp marks the page hydrated only then.
 */
export function whenPartsHydrated(then: () => void): void {
  if (partsPending === 0) then();
  else onAllPartsHydrated.add(then);
}

function partHydrated(): void {
  partsPending -= 1;
  if (partsPending > 0) return;
  for (const then of onAllPartsHydrated) then();
  onAllPartsHydrated.clear();
}

/** Drawn after a part inside its boundary (nothing on the page): says when the part has hydrated. */
function HydratedMark({ counted }: { counted: boolean }) {
  useEffect(() => {
    if (counted) partHydrated();
  }, [counted]);
  return null;
}

/**
 * Issue 30 item 1: a part of a page that only some people see (the account menu of a signed-in
 * person, the owner's tools), so the others' browsers never download its code. The server
 * renders it at once, in place; a browser that shows it loads its chunk while hydrating, and
 * until then keeps the server's markup as it is (a dehydrated Suspense boundary).
 *
 * Call it as `loadedWhereShown(import.meta.env.SSR ? (await import("./Part")).Part : null, () =>
 * import("./Part")…)`: the condition must stand at the call site, where the client build folds it
 * to `null` and drops the import, so the part is only in a chunk of its own (a static import of
 * it, even unused, keeps it in the importer's chunk).
 */
export function loadedWhereShown<Props extends object>(
  onServer: ComponentType<Props> | null,
  load: () => Promise<ComponentType<Props>>,
): PartLoadedWhereShown<Props> {
  let loaded = onServer;
  let loading: Promise<void> | null = null;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
    });
    return loading;
  };
  const Lazy = lazy(() => preload().then(() => ({ default: loaded as ComponentType<Props> })));
  function LoadedWhereShown(props: Props) {
    const Part = loaded ?? Lazy;
    // Counted once, by the first render in the browser that waits for the part's code.
    const [counted] = useState(() => {
      if (loaded || typeof window === "undefined") return false;
      partsPending += 1;
      return true;
    });
    return (
      <Suspense fallback={null}>
        <Part {...props} />
        <HydratedMark counted={counted} />
      </Suspense>
    );
  }
  return Object.assign(LoadedWhereShown, { preload });
}

/**
 * Issue 30 item 1: a part far down the page (the view page's suggestions beside or below the deck),
 * whose code loads once its place comes within `aheadPx` of the screen. The server renders it in
 * place; the browser keeps that markup as it is (a dehydrated Suspense boundary: its links work,
 * its room is held) and hydrates it when the code is there. Call it as loadedWhereShown; its props
 * are data (compared as JSON) and functions. Its markup stands in a `display: contents` holder, so
 * the page's layout sees the part alone.
 */
export function loadedWhenNear<Props extends object>(
  onServer: ComponentType<Props> | null,
  load: () => Promise<ComponentType<Props>>,
  aheadPx: number,
): PartLoadedWhereShown<Props> {
  let comeNear: () => void = () => {};
  const near = new Promise<void>((resolve) => {
    comeNear = resolve;
  });
  let loading: Promise<ComponentType<Props>> | null = null;
  const preload = () => {
    loading ??= load();
    return loading.then(() => {});
  };
  // Always the lazy part in the browser (a part that turned into another type would be drawn anew).
  const Lazy = lazy(() =>
    near.then(preload).then(async () => ({ default: await (loading as Promise<ComponentType<Props>>) })),
  );
  function LoadedWhenNear(props: Props) {
    const holder = useRef<HTMLDivElement>(null);
    // Until its code is here the part is the server's markup, and React draws a boundary that gets
    // new props before it has hydrated anew, empty: so the boundary is the same element while the
    // part's values stay the same, with each function prop (a handler made anew by each render of
    // the page) standing for the latest one.
    const latest = useRef(props);
    useLayoutEffect(() => {
      latest.current = props;
    });
    const values = JSON.stringify(Object.values(props).filter((value) => typeof value !== "function"));
    // biome-ignore lint/correctness/useExhaustiveDependencies: the element changes exactly when a value does.
    const element = useMemo(() => {
      const stable: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(props))
        stable[name] =
          typeof value === "function"
            ? (...args: unknown[]) =>
                (latest.current as Record<string, (...args: unknown[]) => unknown>)[name]?.(...args)
            : value;
      const Part = onServer ?? Lazy;
      return (
        <Suspense fallback={null}>
          <Part {...(stable as Props)} />
        </Suspense>
      );
    }, [values]);
    useEffect(() => {
      const box = holder.current;
      const place = box?.firstElementChild;
      // Drawn by the browser (no server markup to watch): it loads now.
      if (!box || !place) return comeNear();
      const stopWatching = whenNearScreen(place, aheadPx, comeNear);
      // Should React have dropped the server's markup after all (a value changed first), nothing is
      // left to watch: then too it loads now.
      const emptied = new MutationObserver(() => {
        if (!place.isConnected) comeNear();
      });
      emptied.observe(box, { childList: true });
      return () => {
        stopWatching();
        emptied.disconnect();
      };
    }, []);
    return (
      <div ref={holder} className="loaded-when-near">
        {element}
      </div>
    );
  }
  return Object.assign(LoadedWhenNear, { preload });
}
