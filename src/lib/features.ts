/** Feature flags are passed from the backend (spec §3); reading an unknown one is an error (§5, §8). */
export type FeatureFlags = Readonly<Record<string, boolean>>;

export const UNKNOWN_FEATURE_MESSAGE = "Feature not passed from backend";

export function readFeature(flags: FeatureFlags, name: string): boolean {
  if (!Object.hasOwn(flags, name)) throw new Error(UNKNOWN_FEATURE_MESSAGE);
  return flags[name] === true;
}
