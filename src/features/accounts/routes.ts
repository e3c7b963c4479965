import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createElement } from "react";
import { LANGUAGE_COOKIE } from "../../i18n/locales";
import { isOid } from "../../lib/ids";
import { ownerDisplayName } from "../../lib/owner";
import { safeNextPath } from "../../lib/safe-redirect";
import { signInReasonOf } from "../../lib/sign-in-reason";
import { LISTS_TAG, userTag } from "../content-changes";
import { type FeatureContext, formPageSender, PUBLIC_PAGE_CACHE_CONTROL } from "../http";
import { AccountPage, type AccountPageData, type FormProblem } from "./components/AccountPages";
import { createLoginThrottle, DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from "./login-throttle";
import { PasswordHashingBusyError } from "./password";
import { profileSource } from "./profile";
import { findUserById, updateAuthorSegment } from "./repository";
import { chosenSegment, registerSegmentationRoutes, SEGMENT_COOKIE } from "./segmentation";
import { AccountError, changePassword, logIn, signUp, updateSettings } from "./service";

/** Window of the signup throttle (the count is configured); login throttling is in login-throttle.ts. */
const SIGNUP_WINDOW_MS = 60 * 60 * 1000;
/** When to come back after the password queue was full (password.ts). */
const BUSY_RETRY_AFTER_SECONDS = 5;
/** Where people land after logging in or signing up without a `next`. */
const AFTER_SIGN_IN = "/dashboard/next/";

type Form = Record<string, unknown>;
/** Each member of a union of pages without its `problem` (Omit alone would merge them). */
type WithoutProblem<Page> = Page extends unknown ? Omit<Page, "problem"> : never;
/** The login or signup form's data, but for what was wrong. */
type AuthForm = WithoutProblem<Extract<AccountPageData, { page: "login" | "signup" }>>;
const text = (form: Form | undefined, key: string): string => {
  const value = form?.[key];
  return typeof value === "string" ? value : "";
};

export function registerAccountRoutes(app: FastifyInstance, context: FeatureContext): void {
  const { db } = context;
  const profiles = profileSource(db, context.changes);
  const limits = context.accountLimits;
  const loginThrottle = createLoginThrottle(limits, context.secret, context.limits);
  const signupByAddress = context.limits.sliding("signup-address", limits.signupsPerAddress, SIGNUP_WINDOW_MS);

  // Not listed by search engines; the profile, the one account page they may list, is sent as a public page.
  const sendAccountPage = formPageSender(context, "accounts", AccountPage);

  /** The posted login or signup form again (titled as its button), saying what was wrong. */
  const formAgain =
    (request: FastifyRequest, reply: FastifyReply, data: AuthForm) => (problem: FormProblem, status: number) =>
      sendAccountPage(request, reply, { ...data, problem }, { id: `accounts.${data.page}.submit` }, status);
  const tooMany = (reply: FastifyReply, seconds: number): FormProblem => {
    reply.header("retry-after", String(seconds));
    return { field: "form", messageId: "accounts.error.tooMany", values: { seconds } };
  };
  const busy = (reply: FastifyReply): FormProblem => {
    reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
    return { field: "form", messageId: "accounts.error.busy" };
  };
  /** Marks this browser as one that signed in to the account (login-throttle.ts). */
  const rememberDevice = (reply: FastifyReply, email: string) =>
    reply.setCookie(DEVICE_COOKIE, loginThrottle.deviceCookieFor(email), {
      path: "/login/",
      httpOnly: true,
      sameSite: "lax",
      secure: context.publicUrl.startsWith("https:"),
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    });

  // Log in (spec §2 /login/; `next` honoured only for same-origin paths).
  app.get("/login/", (request: FastifyRequest<{ Querystring: { next?: string; reason?: string } }>, reply) => {
    if (request.viewer) return reply.redirect(safeNextPath(request.query.next, AFTER_SIGN_IN), 303);
    return sendAccountPage(
      request,
      reply,
      {
        page: "login",
        next: safeNextPath(request.query.next),
        reason: signInReasonOf(request.query.reason),
        email: "",
        problem: null,
      },
      { id: "accounts.login.submit" },
    );
  });

  app.post("/login/", async (request, reply) => {
    const form = request.body as Form | undefined;
    const email = text(form, "email").trim().toLowerCase();
    const next = safeNextPath(text(form, "next"));
    const reason = signInReasonOf(text(form, "reason"));
    const page = formAgain(request, reply, { page: "login", next, reason, email });
    const attempt = await loginThrottle.begin({
      email,
      address: request.ip,
      deviceCookie: request.cookies[DEVICE_COOKIE],
    });
    if (!attempt.allowed) return page(tooMany(reply, attempt.retryAfterSeconds), 429);
    let user: Awaited<ReturnType<typeof logIn>>;
    try {
      user = await logIn(db, email, text(form, "password"));
    } catch (error) {
      await attempt.end("aborted");
      if (error instanceof PasswordHashingBusyError) return page(busy(reply), 503);
      throw error;
    }
    if (!user) {
      await attempt.end("failure");
      // One message for a wrong email and a wrong password alike.
      return page({ field: "form", messageId: "accounts.error.login" }, 401);
    }
    await attempt.end("success");
    rememberDevice(reply, email);
    await context.signIn(request, reply, user.id);
    return reply.redirect(safeNextPath(next === "/" ? AFTER_SIGN_IN : next, AFTER_SIGN_IN), 303);
  });

  registerSegmentationRoutes(app, context, sendAccountPage);

  app.get("/signup/", (request: FastifyRequest<{ Querystring: { next?: string; reason?: string } }>, reply) => {
    if (request.viewer) return reply.redirect(safeNextPath(request.query.next, AFTER_SIGN_IN), 303);
    // Issue 13, R2.8: Get started (R2.6, plain /signup/) asks what Podium is for first; entry
    // points with a next (a logged-out like, a template) go straight to the form.
    if (request.query.next === undefined) {
      return sendAccountPage(request, reply, { page: "segment", problem: null }, { id: "accounts.segment.title" });
    }
    // Issue 12: a signed-out Like says why it led here.
    const reason = signInReasonOf(request.query.reason);
    return sendAccountPage(
      request,
      reply,
      { page: "signup", next: safeNextPath(request.query.next), reason, values: {}, problem: null },
      reason === "like" ? { id: "likes.signUpToLike" } : { id: "accounts.signup.submit" },
    );
  });

  app.post("/signup/", async (request, reply) => {
    const form = request.body as Form | undefined;
    const values = {
      firstName: text(form, "firstName"),
      lastName: text(form, "lastName"),
      publicDisplayName: text(form, "publicDisplayName"),
      email: text(form, "email"),
    };
    const next = safeNextPath(text(form, "next"));
    const reason = signInReasonOf(text(form, "reason"));
    const page = formAgain(request, reply, { page: "signup", next, reason, values });
    const limit = await signupByAddress.hit(request.ip);
    if (!limit.allowed) return page(tooMany(reply, limit.retryAfterSeconds), 429);
    try {
      const user = await signUp(db, { ...values, password: text(form, "password") });
      // R2.8: the segment chosen before signing up becomes the account's (spec §3 authorSegment).
      const segment = chosenSegment(request.cookies[SEGMENT_COOKIE]);
      if (segment) {
        await updateAuthorSegment(db, user.id, segment);
        reply.clearCookie(SEGMENT_COOKIE, { path: "/" });
      }
      rememberDevice(reply, user.email);
      await context.signIn(request, reply, user.id);
      return reply.redirect(next === "/" ? AFTER_SIGN_IN : next, 303);
    } catch (error) {
      if (error instanceof PasswordHashingBusyError) return page(busy(reply), 503);
      if (!(error instanceof AccountError)) throw error;
      return page(
        { field: error.field, messageId: error.messageId },
        error.messageId === "accounts.error.emailTaken" ? 409 : 400,
      );
    }
  });

  // Spec §2 "/logout": a GET shows the question (a GET never changes state); the POST logs out.
  app.get("/logout", (request, reply) => {
    if (!request.viewer) return reply.redirect("/", 303);
    return sendAccountPage(
      request,
      reply,
      { page: "logout", name: ownerDisplayName(request.viewer) },
      { id: "nav.logOut" },
    );
  });
  app.post("/logout", async (request, reply) => {
    await context.signOut(request, reply);
    return reply.redirect("/", 303);
  });

  const settingsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    saved: "profile" | "password" | null,
    problem: FormProblem | null,
    status = 200,
  ) => {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect(`/login/?next=${encodeURIComponent("/settings/")}`, 303);
    const user = await findUserById(db, viewer.userId);
    if (!user) return reply.redirect("/login/", 303);
    return sendAccountPage(
      request,
      reply,
      {
        page: "settings",
        profile: {
          firstName: user.firstName,
          lastName: user.lastName,
          publicDisplayName: user.publicDisplayName ?? "",
          language: user.language ?? "",
          email: user.email,
        },
        saved,
        problem,
      },
      { id: "settings.title" },
      status,
    );
  };

  app.get("/settings/", (request: FastifyRequest<{ Querystring: { saved?: string } }>, reply) => {
    const saved = request.query.saved === "profile" || request.query.saved === "password" ? request.query.saved : null;
    return settingsPage(request, reply, saved, null);
  });

  app.post("/settings/", async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect("/login/?next=%2Fsettings%2F", 303);
    const form = request.body as Form | undefined;
    try {
      await updateSettings(db, viewer.userId, {
        firstName: text(form, "firstName"),
        lastName: text(form, "lastName"),
        publicDisplayName: text(form, "publicDisplayName"),
        language: text(form, "language"),
      });
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      return settingsPage(request, reply, null, { field: error.field, messageId: error.messageId }, 400);
    }
    const language = text(form, "language");
    if (language) reply.setCookie(LANGUAGE_COOKIE, language, { path: "/", sameSite: "lax", maxAge: 365 * 24 * 3600 });
    else reply.clearCookie(LANGUAGE_COOKIE, { path: "/" });
    return reply.redirect("/settings/?saved=profile", 303);
  });

  app.post("/settings/password", async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer || !request.sessionToken) return reply.redirect("/login/?next=%2Fsettings%2F", 303);
    const form = request.body as Form | undefined;
    try {
      await changePassword(context.db, viewer.userId, request.sessionToken, {
        currentPassword: text(form, "currentPassword"),
        newPassword: text(form, "newPassword"),
      });
    } catch (error) {
      if (error instanceof PasswordHashingBusyError) return settingsPage(request, reply, null, busy(reply), 503);
      if (!(error instanceof AccountError)) throw error;
      return settingsPage(request, reply, null, { field: error.field, messageId: error.messageId }, 400);
    }
    return reply.redirect("/settings/?saved=password", 303);
  });

  // Spec §2 /user/{oid}/: the owner's profile with their listed presentations.
  app.get("/user/:oid/", async (request: FastifyRequest<{ Params: { oid: string } }>, reply) => {
    const { oid } = request.params;
    const profile = isOid(oid) ? await profiles(oid) : null;
    if (!profile) return context.sendNotFound(request, reply);
    reply.header("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
    context.cacheTags(reply, [userTag(oid), LISTS_TAG]);
    return context.sendPage(request, reply, {
      entry: "accounts",
      data: { page: "profile", ...profile } satisfies AccountPageData,
      render: (pageData) => createElement(AccountPage, { data: pageData }),
      head: { title: profile.owner.name, canonicalUrl: `${context.publicUrl}/user/${oid}/` },
    });
  });
}
