import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { safeNextPath } from "../../lib/safe-redirect";
import { type FeatureContext, formPageSender } from "../http";
import { decodeWarnings, warningsQuery } from "../presentation/import-warnings";
import { analyticsCsv } from "./analytics-csv";
import { DashboardPage, type DashboardPageData, type Notice } from "./components/DashboardPage";
import { CREATE_PATH } from "./paths";
import {
  addCollaborator,
  copyPresentation,
  createEmptyPresentation,
  createViewLink,
  DashboardError,
  dropCollaborator,
  getDashboard,
  getManageData,
  type ImportFile,
  importPresentation,
  manageLocalImages,
  removePresentation,
  revokeLink,
  saveDetails,
  saveLinkSettings,
  setDownloadChoice,
  setEmbedHosts,
  setNotesChoice,
} from "./service";

type Body = Record<string, unknown> | undefined;
type OidParams = { Params: { oid: string } };

/** A form field from a urlencoded body (a string) or a multipart one ({ value }). */
function field(body: Body, name: string): string {
  const value = body?.[name];
  if (typeof value === "string") return value;
  const inner = (value as { value?: unknown } | undefined)?.value;
  return typeof inner === "string" ? inner : "";
}

async function uploadedFile(body: Body): Promise<ImportFile | null> {
  const part = body?.file as
    | { type?: string; filename?: string; toBuffer?: () => Promise<Buffer>; file?: { truncated?: boolean } }
    | undefined;
  if (part?.type !== "file" || !part.toBuffer || !part.filename) return null;
  const content = await part.toBuffer();
  return { filename: part.filename, content, truncated: part.file?.truncated === true };
}

const NOTICES = new Set([
  "created",
  "deleted",
  "saved",
  "linkCreated",
  "linkRevoked",
  "linkSaved",
  "collaboratorAdded",
  "collaboratorRemoved",
  "copied",
  "themeSaved",
  "notesSaved",
  "embedHostsSaved",
  "downloadsSaved",
]);

function noticeFrom(query: unknown): Notice | null {
  const notice = (query as { notice?: string } | undefined)?.notice;
  return notice && NOTICES.has(notice) ? { kind: "success", messageId: `dashboard.notice.${notice}` } : null;
}

/** Spec §2 /dashboard/next/: my presentations, importing new ones, and managing each one's sharing. */
export function registerDashboardRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  const base = "/dashboard/next/";

  const sendForm = formPageSender(context, "dashboard", DashboardPage);
  const send = (request: FastifyRequest, reply: FastifyReply, data: DashboardPageData, status = 200) =>
    sendForm(request, reply, data, { id: "dashboard.title" }, status);

  const requireViewer = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.viewer) return request.viewer;
    void reply.redirect(
      `/login/?next=${encodeURIComponent(request.url.startsWith(base) || request.url.startsWith("/dashboard/next?") ? request.url : base)}`,
      303,
    );
    return null;
  };

  const listPage = async (request: FastifyRequest, reply: FastifyReply, problem: Notice | null, status = 200) => {
    const viewer = requireViewer(request, reply);
    if (!viewer) return reply;
    const page = Number((request.query as { page?: string } | undefined)?.page ?? 1);
    const dashboard = await getDashboard(db, viewer, Number.isInteger(page) ? page : 1);
    return send(request, reply, { view: "list", ...dashboard, notice: problem ?? noticeFrom(request.query) }, status);
  };

  const managePage = async (
    request: FastifyRequest<OidParams>,
    reply: FastifyReply,
    problem: Notice | null,
    status = 200,
  ) => {
    const viewer = requireViewer(request, reply);
    if (!viewer) return reply;
    const query = request.query as { days?: string; audience?: string } | undefined;
    const manage = await getManageData(db, viewer, request.params.oid, context.publicUrl, {
      days: Number(query?.days),
      audience: typeof query?.audience === "string" ? query.audience : "all",
    });
    const importWarnings = decodeWarnings((request.query as { warnings?: unknown } | undefined)?.warnings);
    // Issue 28 item 7: image files the import couldn't show are offered for upload beside the warning.
    const localImages = importWarnings.some((warning) => warning.code === "localImage")
      ? await manageLocalImages(db, context.documents, viewer, request.params.oid)
      : [];
    return send(
      request,
      reply,
      { view: "manage", ...manage, notice: problem ?? noticeFrom(request.query), importWarnings, localImages },
      status,
    );
  };

  /** A page whose refusal (a DashboardError: no such deck, not yours) is answered with the error page. */
  const orErrorPage =
    (handler: (request: FastifyRequest<OidParams>, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest<OidParams>, reply: FastifyReply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (error instanceof DashboardError) return context.sendError(request, reply, error.statusCode);
        throw error;
      }
    };

  /** Runs a dashboard action, then redirects (POST → redirect → GET); a refused action re-renders with its reason. */
  const action =
    (run: (request: FastifyRequest<OidParams>, viewer: NonNullable<FastifyRequest["viewer"]>) => Promise<string>) =>
    async (request: FastifyRequest<OidParams>, reply: FastifyReply) => {
      const viewer = requireViewer(request, reply);
      if (!viewer) return reply;
      try {
        return reply.redirect(await run(request, viewer), 303);
      } catch (error) {
        if (!(error instanceof DashboardError)) throw error;
        if (error.statusCode === 404 || error.statusCode === 403)
          return context.sendError(request, reply, error.statusCode);
        const notice: Notice = { kind: "error", messageId: error.messageId, values: error.values };
        return managePage(request, reply, notice, error.statusCode);
      }
    };

  const managePath = (oid: string, notice: string) => `${base}presentations/${oid}/?notice=${notice}`;

  app.get(base, (request: FastifyRequest<{ Querystring: { after_segmentation_url?: string } }>, reply) => {
    // Issue 13, R2.8: after sign-up following segmentation, go on where the flow says (same origin only).
    const after = request.query.after_segmentation_url;
    if (after !== undefined && request.viewer) return reply.redirect(safeNextPath(after, base), 303);
    return listPage(request, reply, null);
  });

  // Issue 13, R2.8: sign-up lands here. Issue 28, item 3: the same drop zone as an empty dashboard,
  // a template, and an empty presentation with a title (which opens in the editor).
  const createPage = (request: FastifyRequest, reply: FastifyReply, title: string, problem: Notice | null) =>
    sendForm(request, reply, { view: "create", title, problem }, { id: "accounts.create.title" }, problem ? 400 : 200);
  const toLogIn = (reply: FastifyReply) => reply.redirect(`/login/?next=${encodeURIComponent(CREATE_PATH)}`, 303);

  app.get(CREATE_PATH, (request, reply) => (request.viewer ? createPage(request, reply, "", null) : toLogIn(reply)));

  app.post(CREATE_PATH, async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return toLogIn(reply);
    const title = field(request.body as Body, "title");
    try {
      const created = await createEmptyPresentation(db, context.documents, viewer, title);
      return reply.redirect(created.editorUrl, 303);
    } catch (error) {
      if (!(error instanceof DashboardError)) throw error;
      return createPage(request, reply, title.trim(), {
        kind: "error",
        messageId: error.messageId,
        values: error.values,
      });
    }
  });

  app.post(`${base}import`, async (request, reply) => {
    const viewer = requireViewer(request, reply);
    if (!viewer) return reply;
    const body = request.body as Body;
    try {
      const { oid, warnings } = await importPresentation(db, context.documents, viewer, await uploadedFile(body), {
        title: field(body, "title"),
        privacy: field(body, "privacy"),
        schemaVersion: field(body, "schemaVersion"),
      });
      return reply.redirect(`${managePath(oid, "created")}${warningsQuery(warnings)}`, 303);
    } catch (error) {
      if (!(error instanceof DashboardError)) throw error;
      return listPage(
        request,
        reply,
        { kind: "error", messageId: error.messageId, values: error.values },
        error.statusCode,
      );
    }
  });

  app.get(
    `${base}presentations/:oid/`,
    orErrorPage((request, reply) => managePage(request, reply, null)),
  );

  app.post(
    `${base}presentations/:oid/details`,
    action(async (request, viewer) => {
      const body = request.body as Body;
      await saveDetails(db, viewer, request.params.oid, {
        title: field(body, "title"),
        description: field(body, "description"),
        tags: field(body, "tags"),
        privacy: field(body, "privacy"),
      });
      return managePath(request.params.oid, "saved");
    }),
  );

  app.post(
    `${base}presentations/:oid/view-links`,
    action(async (request, viewer) => {
      await createViewLink(db, viewer, request.params.oid, {
        forPresenting: field(request.body as Body, "forPresenting") === "on",
        name: field(request.body as Body, "name"),
      });
      return managePath(request.params.oid, "linkCreated");
    }),
  );

  // Issue 28: the owner publishes the speaker notes, or keeps them private.
  app.post(
    `${base}presentations/:oid/notes`,
    action(async (request, viewer) => {
      await setNotesChoice(db, viewer, request.params.oid, field(request.body as Body, "notes"));
      return managePath(request.params.oid, "notesSaved");
    }),
  );

  // Issue 33 item 4: whether viewers of the public page may download the deck.
  app.post(
    `${base}presentations/:oid/downloads`,
    action(async (request, viewer) => {
      await setDownloadChoice(db, viewer, request.params.oid, field(request.body as Body, "allowDownload") === "on");
      return managePath(request.params.oid, "downloadsSaved");
    }),
  );

  // Issue 34: the sites that may embed the deck (the embed page's frame-ancestors and its API).
  app.post(
    `${base}presentations/:oid/embed-hosts`,
    action(async (request, viewer) => {
      await setEmbedHosts(db, viewer, request.params.oid, field(request.body as Body, "hosts"));
      return managePath(request.params.oid, "embedHostsSaved");
    }),
  );

  app.post(
    `${base}presentations/:oid/view-links/:linkId/revoke`,
    action(async (request, viewer) => {
      await revokeLink(db, viewer, request.params.oid, (request.params as unknown as { linkId: string }).linkId);
      return managePath(request.params.oid, "linkRevoked");
    }),
  );

  // Issue 33: a link's name, expiry, passcode, download and on/off.
  app.post(
    `${base}presentations/:oid/view-links/:linkId/settings`,
    action(async (request, viewer) => {
      const body = request.body as Body;
      await saveLinkSettings(db, viewer, request.params.oid, (request.params as unknown as { linkId: string }).linkId, {
        name: field(body, "name"),
        expiresOn: field(body, "expiresOn"),
        passcode: field(body, "passcode"),
        removePasscode: field(body, "removePasscode") === "on",
        allowDownload: field(body, "allowDownload") === "on",
        enabled: field(body, "enabled") === "on",
      });
      return managePath(request.params.oid, "linkSaved");
    }),
  );

  app.post(
    `${base}presentations/:oid/collaborators`,
    action(async (request, viewer) => {
      const body = request.body as Body;
      await addCollaborator(db, viewer, request.params.oid, {
        email: field(body, "email"),
        right: field(body, "right"),
      });
      return managePath(request.params.oid, "collaboratorAdded");
    }),
  );

  app.post(
    `${base}presentations/:oid/collaborators/:userOid/remove`,
    action(async (request, viewer) => {
      await dropCollaborator(
        db,
        viewer,
        request.params.oid,
        (request.params as unknown as { userOid: string }).userOid,
      );
      return managePath(request.params.oid, "collaboratorRemoved");
    }),
  );

  // Issue 33 item 5: the analytics as CSV, for the period and audience the page shows; the owner's alone.
  app.get(
    `${base}presentations/:oid/analytics.csv`,
    orErrorPage(async (request, reply) => {
      const viewer = requireViewer(request, reply);
      if (!viewer) return reply;
      const query = request.query as { days?: string; audience?: string } | undefined;
      const manage = await getManageData(db, viewer, request.params.oid, context.publicUrl, {
        days: Number(query?.days),
        audience: typeof query?.audience === "string" ? query.audience : "all",
      });
      return reply
        .header("cache-control", "private, no-store")
        .header("content-disposition", `attachment; filename="podium-analytics-${manage.presentation.oid}.csv"`)
        .type("text/csv; charset=utf-8")
        .send(analyticsCsv(manage));
    }),
  );

  // Deleting asks first (a GET never changes state), then the POST deletes.
  app.get(
    `${base}presentations/:oid/delete`,
    orErrorPage(async (request, reply) => {
      const viewer = requireViewer(request, reply);
      if (!viewer) return reply;
      const manage = await getManageData(db, viewer, request.params.oid);
      return send(request, reply, { view: "delete", oid: manage.presentation.oid, title: manage.presentation.title });
    }),
  );

  // Make a copy (spec §2: the address comes from page data, makeACopyRedirectUrl).
  app.post(
    "/p/:oid/copy/",
    orErrorPage(async (request, reply) => {
      if (!request.viewer)
        return reply.redirect(`/login/?next=${encodeURIComponent(`/p/${request.params.oid}/`)}`, 303);
      const copy = await copyPresentation(db, request.viewer, request.params.oid);
      return reply.redirect(managePath(copy, "copied"), 303);
    }),
  );

  app.post(
    `${base}presentations/:oid/delete`,
    action(async (request, viewer) => {
      await removePresentation(db, viewer, request.params.oid);
      return `${base}?notice=deleted`;
    }),
  );
}
