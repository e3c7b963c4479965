import "fastify";

/** Who is making a request: a signed-in person, or null for an anonymous visitor. */
export type Viewer = {
  userId: string;
  oid: string;
  email: string;
  firstName: string;
  lastName: string;
  publicDisplayName: string | null;
  language: string | null;
  isAdmin: boolean;
  isCurator: boolean;
  /** Spec §3 authorSegment as stored (R2.8); explore/search.ts authorSegmentOf reads it. */
  authorSegment?: string;
} | null;

declare module "fastify" {
  interface FastifyRequest {
    /** Set for every request by the session plugin. */
    viewer: Viewer;
    /** The session cookie's token, when the session is live. */
    sessionToken: string | null;
  }
}
