import { type ComponentType, lazy, Suspense } from "react";

/** A part loaded where shown, and a way to load it ahead (what the browser would on hydrating). */
export type PartLoadedWhereShown<Props> = ComponentType<Props> & { preload(): Promise<void> };

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
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  }
  return Object.assign(LoadedWhereShown, { preload });
}
