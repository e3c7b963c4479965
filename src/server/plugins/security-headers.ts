import type { FastifyInstance } from "fastify";

/**
 * The headers every answer carries (the ones @fastify/helmet set with this configuration, issue 32
 * item 5: its two hooks, one decorating every reply, cost more than the page's template). The
 * content security policy and framing are set per response (app.ts): the embed page differs.
 * A route opts out with `config: { securityHeaders: false }` (the usage-event beacons' 204s).
 */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  return {
    "cross-origin-opener-policy": "same-origin",
    // Thumbnails and the embed page are used by other sites; everything else stays same-site.
    "cross-origin-resource-policy": "same-site",
    "origin-agent-cluster": "?1",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...(https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
    "x-content-type-options": "nosniff",
    "x-dns-prefetch-control": "off",
    "x-download-options": "noopen",
    "x-permitted-cross-domain-policies": "none",
    "x-xss-protection": "0",
  };
}

export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers = securityHeaders(options.https);
  app.addHook("onRequest", (request, reply, done) => {
    if (request.routeOptions.config?.securityHeaders !== false) reply.headers(headers);
    done();
  });
}
