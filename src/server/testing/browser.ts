import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";

/** A desktop Chrome's user agent, for tests whose requests should look like a browser's. */
export const CHROME_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** What a browser asks a page with: HTML, any coding it knows, Chrome's user agent. */
export const BROWSER_HEADERS = {
  accept: "text/html",
  "accept-encoding": "gzip, deflate, br",
  "user-agent": CHROME_USER_AGENT,
};

/** A response's body as text, decoded from the coding it came in (br, gzip or none). */
export function decodedBody(response: LightMyRequestResponse): string {
  const encoding = response.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(response.rawPayload).toString("utf8");
  if (encoding === "gzip") return gunzipSync(response.rawPayload).toString("utf8");
  return response.body;
}
