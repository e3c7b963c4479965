/** Spec §3: the embed-copy log's product_type: CLASSIC for schema '0', else NEXT. */
export function embedProductType(schemaVersion: string): "CLASSIC" | "NEXT" {
  return schemaVersion === "0" ? "CLASSIC" : "NEXT";
}
