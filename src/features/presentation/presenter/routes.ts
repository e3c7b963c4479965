import type { FastifyInstance, FastifyRequest } from "fastify";
import { createElement, type ReactElement } from "react";
import type { FeatureContext } from "../../http";
import { linkRouteOf } from "../link-gate";
import type { PresentationRoute } from "../service";
import { PresenterPage } from "./components/PresenterPage";
import type { PresenterPageData } from "./page-data";
import { getPresenterPage } from "./service";

/**
 * Issue 35: what another feature adds to the presenter view (the live session's panel, composed
 * above this feature): its page data from the presenter's, and the page it renders. `oid` is the
 * deck's on its own presenter view, null through a view link.
 */
export interface PresenterPageExtension<Data = unknown> {
  data(request: FastifyRequest, oid: string | null, data: PresenterPageData): Promise<Data>;
  render(data: Data): ReactElement;
}

type OidRequest = FastifyRequest<{ Params: { oid: string } }>;
type LinkRequest = FastifyRequest<{ Params: { linkId: string } }>;

/**
 * The presenter view (issue 10, speaker notes): a second window beside the audience's player,
 * with the notes, the next slide and a timer. `/p/presenter/{oid}/` is for those who may edit the
 * deck and `/view/{linkId}/presenter/` for holders of a view link made for presenting (issue 28);
 * anyone else who may see the deck gets a 403 (signed out: the sign-in page first), and a deck
 * they may not see is a 404 (`/p/{oid}/presenter/` would be the view page of a deck titled
 * "Presenter"). Never indexed, never cached.
 */
export function registerPresenterRoutes(
  app: FastifyInstance,
  context: FeatureContext,
  // biome-ignore lint/suspicious/noExplicitAny: the extension's data is its own
  extension?: PresenterPageExtension<any>,
): void {
  const send = async (
    route: PresentationRoute,
    request: FastifyRequest,
    reply: Parameters<FeatureContext["sendPage"]>[1],
  ) => {
    const data = await getPresenterPage(context.db, route, request.viewer);
    if (data === "notFound") return context.sendNotFound(request, reply);
    if (data === "forbidden") {
      // Issue 28: the owner on a browser where they aren't signed in is asked to sign in first.
      if (!request.viewer && "oid" in route) {
        return reply.redirect(`/login/?next=${encodeURIComponent(`/p/presenter/${route.oid}/`)}`, 303);
      }
      return context.sendError(request, reply, 403);
    }
    reply.header("cache-control", "private, no-store");
    // A view link is a secret: keep it out of Referer headers.
    if ("linkId" in route) reply.header("referrer-policy", "no-referrer");
    if (extension) {
      const extended = await extension.data(request, "oid" in route ? route.oid : null, data);
      return context.sendPage(request, reply, {
        entry: "presenter",
        data: extended,
        cookieFree: true,
        render: (pageData) => extension.render(pageData),
        head: { title: { id: "presenter.pageTitle", values: { title: data.title } }, noindex: true },
      });
    }
    return context.sendPage(request, reply, {
      entry: "presenter",
      data,
      // A tool beside the audience's window: it sets no cookie, so it asks about none.
      cookieFree: true,
      render: (pageData) => createElement(PresenterPage, { data: pageData }),
      head: { title: { id: "presenter.pageTitle", values: { title: data.title } }, noindex: true },
    });
  };
  app.get("/p/presenter/:oid/", (request: OidRequest, reply) => send({ oid: request.params.oid }, request, reply));
  app.get("/view/:linkId/presenter/", (request: LinkRequest, reply) =>
    send(linkRouteOf(request.params.linkId, request.cookies), request, reply),
  );
}
