import type { Role } from '@app/contracts';

/** Who makes a request, resolved from the bearer token or the session cookie. */
export interface Viewer {
  id: number;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  blocked: boolean;
  /** Signed in with a temporary password: only the password change and sign-out work until it is changed. */
  mustChangePassword: boolean;
  sessionId: number;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}
