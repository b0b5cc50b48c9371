import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { issueCsrfCookie } from './csrf.ts';
import { clearSessionCookie, setSessionCookie } from './auth.plugin.ts';
import { revokeSession } from './sessions.queries.ts';
import { changePassword, confirmEmail, currentUser, isResetLinkValid, login, register, requestPasswordReset, resendEmailCode, resetPassword, signInCheckLevel } from './accounts.service.ts';
import { createSignInChallenge } from './sign-in-check.ts';
import { finishEnrolment, startEnrolment } from './second-factor.service.ts';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

export default async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const secure = ctx.config.publicUrl.startsWith('https://');

  mountRoute(app, accountRoutes.csrfCookie, async ({ reply }) => {
    issueCsrfCookie(reply, ctx.secrets.appSecret, secure);
    void reply.code(204);
    return null;
  });

  mountRoute(app, accountRoutes.register, async ({ req, reply, body }) => {
    const { session, user } = await register(ctx, body, meta(req));
    setSessionCookie(reply, session, secure);
    return { token: session.bearer, user };
  });

  mountRoute(app, accountRoutes.signInCheck, async ({ body }) => ({ challenge: await createSignInChallenge(ctx, body.email, await signInCheckLevel(ctx, body.email)) }));

  mountRoute(app, accountRoutes.login, async ({ req, reply, body }) => {
    const { session, user } = await login(ctx, body, meta(req));
    setSessionCookie(reply, session, secure);
    return { token: session.bearer, user };
  });

  mountRoute(app, accountRoutes.logout, async ({ reply, viewer }) => {
    if (viewer) {
      await revokeSession(ctx.db, viewer.sessionId);
      ctx.viewers.forgetUser(viewer.id);
    }
    clearSessionCookie(reply, secure);
    return { ok: true as const };
  });

  /** Sign-out for plain links (the overlay's and the header's): revokes the session, back to /login. */
  app.get('/logout', { schema: { hide: true } }, async (req, reply) => {
    if (req.viewer) {
      await revokeSession(ctx.db, req.viewer.sessionId);
      ctx.viewers.forgetUser(req.viewer.id);
    }
    clearSessionCookie(reply, secure);
    return reply.redirect('/login');
  });

  mountRoute(app, accountRoutes.user, async ({ viewer }) => currentUser(ctx, viewer));

  mountRoute(app, accountRoutes.changePassword, async ({ viewer, body }) => {
    await changePassword(ctx, viewer, body);
    return { ok: true as const };
  });

  mountRoute(app, accountRoutes.secondFactorSetup, async ({ viewer }) => startEnrolment(ctx, viewer));

  mountRoute(app, accountRoutes.secondFactorEnable, async ({ req, viewer, body }) => ({ recovery_codes: await finishEnrolment(ctx, viewer, body.code, req.ip) }));

  mountRoute(app, accountRoutes.confirmEmail, async ({ req, viewer, body }) => {
    await confirmEmail(ctx, viewer.id, body.code, meta(req));
    return { email_confirmed: true as const };
  });

  mountRoute(app, accountRoutes.resendConfirmation, async ({ viewer }) => ({ resend_in: await resendEmailCode(ctx, viewer.id) }));

  mountRoute(app, accountRoutes.resetRequest, async ({ req, body }) => {
    await requestPasswordReset(ctx, body.email, meta(req));
    return { ok: true as const };
  });

  mountRoute(app, accountRoutes.resetCheck, async ({ query }) => ({ valid: await isResetLinkValid(ctx, query.token, query.email.trim()) }));

  mountRoute(app, accountRoutes.resetPassword, async ({ req, body }) => {
    await resetPassword(ctx, body, meta(req));
    return { ok: true as const };
  });
}
