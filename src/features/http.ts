import type { FastifyReply, FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import type { ClientEntry } from "../client/entries";
import type { Database } from "../db/client";
import type { FeatureFlags } from "../lib/features";

/** What a feature's routes get from the server: the database, settings and page rendering. */
export interface FeatureContext {
  db: Database;
  features: FeatureFlags;
  /** The origin Podium is reached at, without a trailing slash. */
  publicUrl: string;
  /** Server-renders a page and sends it with its status. */
  sendPage<Data>(request: FastifyRequest, reply: FastifyReply, page: PageSpec<Data>): FastifyReply;
  /** Sends the 404 page (or a JSON 404 for API requests). */
  sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

export interface PageHead {
  title: string;
  description?: string;
  /** Absolute URL of the canonical page. */
  canonicalUrl?: string;
  /** Absolute URL of a preview image (Open Graph, Twitter cards). */
  imageUrl?: string;
  noindex?: boolean;
}

export interface PageSpec<Data> {
  entry: ClientEntry;
  data: Data;
  /** Renders the page body from its data; the same function hydrates it in the browser. */
  render: (data: Data) => ReactElement;
  head: PageHead;
  status?: number;
  /** Other sites may show this page in a frame (the embed page only). */
  frameable?: boolean;
}

/** Spec §2, §9: mobile is a phone or tablet user agent (the layout itself follows the 768 px breakpoint). */
export function isMobileUserAgent(userAgent: string | undefined): boolean {
  return /Mobi|Android|iPhone|iPad|iPod/i.test(userAgent ?? "");
}
