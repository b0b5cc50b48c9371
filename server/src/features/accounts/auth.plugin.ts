import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import type { IssuedSession } from './sessions.queries.ts';

export const SESSION_COOKIE = 'session';

/** Resolves `req.viewer` from `Authorization: Bearer <token>`, else from the session cookie. */
export default fp(
  async (app) => {
    app.decorateRequest('viewer', null);
    app.addHook('onRequest', async (req) => {
      // Static files (loader, widget chunks) never need to know who asks.
      if (req.routeOptions.config.static === true) return;
      const auth = req.headers.authorization;
      if (auth !== undefined) {
        const match = /^Bearer\s+([A-Za-z0-9_-]{10,200})$/.exec(auth.trim());
        req.viewer = match?.[1] ? await app.ctx.viewers.find(app.ctx.db, match[1], 'bearer') : null;
        return;
      }
      const cookie = req.cookies[SESSION_COOKIE];
      if (cookie && cookie.length <= 200) req.viewer = await app.ctx.viewers.find(app.ctx.db, cookie, 'cookie');
    });
  },
  { name: 'auth', dependencies: ['context'] },
);

export function setSessionCookie(reply: FastifyReply, session: IssuedSession, secure: boolean): void {
  void reply.setCookie(SESSION_COOKIE, session.cookie, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: session.expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
