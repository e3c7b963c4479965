import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isOid } from "../../lib/ids";
import { parseTags } from "../dashboard/service";
import { type FeatureContext, formPageSender } from "../http";
import { findPresentationByOid } from "../presentation/repository";
import { accessTo } from "../presentation/service";
import { ModerationPage } from "./components/ModerationPages";
import { REPORT_REASONS, type ReportReason } from "./reasons";
import { findHiddenTags, insertReport, listOpenReports, resolveReport, updateCuration } from "./repository";

/** Reports per address per hour (abuse of the abuse form). */
const REPORTS_PER_HOUR = 20;

type Form = Record<string, unknown> | undefined;
const text = (form: Form, key: string) => (typeof form?.[key] === "string" ? (form[key] as string) : "");

export function registerModerationRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  // Counted where the other limits are: in Redis, shared by every process, when REDIS_URL is set.
  const reportLimiter = context.limits.sliding("report", REPORTS_PER_HOUR, 60 * 60 * 1000);
  const send = formPageSender(context, "moderation", ModerationPage);

  const visiblePresentation = async (request: FastifyRequest<{ Params: { oid: string } }>) => {
    const { oid } = request.params;
    const row = isOid(oid) ? await findPresentationByOid(db, oid) : null;
    if (!row || !(await accessTo(db, row, request.viewer)).view) return null;
    return row;
  };

  /** The report form for a deck, saying what was wrong (a message id) if anything. */
  const reportForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    deck: { oid: string; title: string },
    problem: "report.error" | "report.tooMany" | null,
    status = 200,
  ) =>
    send(
      request,
      reply,
      { page: "report", oid: deck.oid, title: deck.title, problem },
      { id: "toolbar.report" },
      status,
    );

  // Spec §2 Report: /contact/abuse/{oid}/ (opened in a new tab from the toolbar).
  app.get("/contact/abuse/:oid/", async (request: FastifyRequest<{ Params: { oid: string } }>, reply) => {
    const row = await visiblePresentation(request);
    if (!row) return context.sendNotFound(request, reply);
    return reportForm(request, reply, row, null);
  });

  app.post("/contact/abuse/:oid/", async (request: FastifyRequest<{ Params: { oid: string } }>, reply) => {
    const row = await visiblePresentation(request);
    if (!row) return context.sendNotFound(request, reply);
    const form = request.body as Form;
    const reason = text(form, "reason") as ReportReason;
    const details = text(form, "details").trim();
    if (!REPORT_REASONS.includes(reason) || details.length > 2000) {
      return reportForm(request, reply, row, "report.error", 400);
    }
    const limit = await reportLimiter.hit(request.ip);
    if (!limit.allowed) {
      reply.header("retry-after", String(limit.retryAfterSeconds));
      return reportForm(request, reply, row, "report.tooMany", 429);
    }
    await insertReport(db, { presentationId: row.id, reporterId: request.viewer?.userId ?? null, reason, details });
    return send(request, reply, { page: "reported", oid: row.oid, title: row.title }, { id: "report.thanks.title" });
  });

  // The moderation queue (product brief, Roles: admins see it and can hide a presentation).
  const requireAdmin = (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.viewer) {
      void reply.redirect(`/login/?next=${encodeURIComponent("/admin/reports/")}`, 303);
      return null;
    }
    if (!request.viewer.isAdmin) {
      void context.sendError(request, reply, 403);
      return null;
    }
    return request.viewer;
  };

  app.get("/admin/reports/", async (request, reply) => {
    if (!requireAdmin(request, reply)) return reply;
    const reports = await listOpenReports(db, 200);
    return send(
      request,
      reply,
      { page: "queue", reports: reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
      { id: "moderation.title" },
    );
  });

  for (const action of ["hide", "dismiss"] as const) {
    app.post(`/admin/reports/:id/${action}`, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const admin = requireAdmin(request, reply);
      if (!admin) return reply;
      if (!/^\d{1,18}$/.test(request.params.id)) return context.sendNotFound(request, reply);
      const done = await db.transaction((tx) => resolveReport(tx, request.params.id, admin.userId, action === "hide"));
      if (!done) return context.sendNotFound(request, reply);
      return reply.redirect("/admin/reports/", 303);
    });
  }

  // Spec §6 curation: only with allow-content-curation on, for curators.
  const requireCurator = (request: FastifyRequest, reply: FastifyReply) => {
    if (!context.features["allow-content-curation"]) {
      void context.sendNotFound(request, reply);
      return null;
    }
    if (!request.viewer) {
      void reply.redirect(`/login/?next=${encodeURIComponent(request.url)}`, 303);
      return null;
    }
    if (!request.viewer.isCurator) {
      void context.sendError(request, reply, 403);
      return null;
    }
    return request.viewer;
  };

  const curatePage = async (
    request: FastifyRequest<{ Params: { oid: string } }>,
    reply: FastifyReply,
    saved: boolean,
  ) => {
    const row = await visiblePresentation(request);
    if (!row) return context.sendNotFound(request, reply);
    const hiddenTags = await findHiddenTags(db, row.oid);
    return send(
      request,
      reply,
      { page: "curate", oid: row.oid, title: row.title, hiddenTags, staffPick: row.isStaffPick, saved },
      { id: "toolbar.curate" },
    );
  };

  app.get(
    "/curation/:oid/",
    async (request: FastifyRequest<{ Params: { oid: string }; Querystring: { saved?: string } }>, reply) => {
      if (!requireCurator(request, reply)) return reply;
      return curatePage(request, reply, request.query.saved === "1");
    },
  );

  app.post("/curation/:oid/", async (request: FastifyRequest<{ Params: { oid: string } }>, reply) => {
    if (!requireCurator(request, reply)) return reply;
    const row = await visiblePresentation(request);
    if (!row) return context.sendNotFound(request, reply);
    const form = request.body as Form;
    let hiddenTags: string[];
    try {
      hiddenTags = parseTags(text(form, "hiddenTags"));
    } catch {
      return context.sendError(request, reply, 400);
    }
    await updateCuration(db, row.oid, { hiddenTags, staffPick: text(form, "staffPick") === "on" });
    return reply.redirect(`/curation/${row.oid}/?saved=1`, 303);
  });
}
