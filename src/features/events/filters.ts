import type { UsageEvent } from "./usage-event";

/**
 * Spec §5: usage-event filters can drop an event. A filter returns the event (possibly
 * changed) to keep it, or null to drop it; filters run in the order they were added and the
 * first null drops the event. A filter that throws drops it too (spec §8: tracking failures
 * never reach the visitor).
 */
export type UsageEventFilter = (event: UsageEvent) => UsageEvent | null;

export function applyUsageEventFilters(event: UsageEvent, filters: readonly UsageEventFilter[]): UsageEvent | null {
  let current: UsageEvent | null = event;
  for (const filter of filters) {
    try {
      current = filter(current);
    } catch {
      return null;
    }
    if (current === null) return null;
  }
  return current;
}

const pageFilters: UsageEventFilter[] = [];

/** Adds a filter for every event this page sends; returns a function that removes it. */
export function addUsageEventFilter(filter: UsageEventFilter): () => void {
  pageFilters.push(filter);
  return () => {
    const index = pageFilters.indexOf(filter);
    if (index >= 0) pageFilters.splice(index, 1);
  };
}

/** The page's filters applied to one event: the event to send, or null when a filter dropped it. */
export function filterUsageEvent(event: UsageEvent): UsageEvent | null {
  return applyUsageEventFilters(event, pageFilters);
}
