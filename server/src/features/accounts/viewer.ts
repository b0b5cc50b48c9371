import type { Role, SetupStep } from '@app/contracts';

/** Who makes a request, resolved from the bearer token or the session cookie. */
export interface Viewer {
  id: number;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  blocked: boolean;
  /** The account's first pending setup step: only the route that does it and sign-out work until it is done. */
  setupStep: SetupStep | null;
  /** The password is a temporary one (`admin:create` printed it): what the `password` step replaces. */
  passwordTemporary: boolean;
  sessionId: number;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}
