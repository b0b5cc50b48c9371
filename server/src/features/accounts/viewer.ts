import type { Role } from '@app/contracts';

/** Who makes a request, resolved from the bearer token or the session cookie. */
export interface Viewer {
  id: number;
  email: string;
  role: Role;
  emailConfirmed: boolean;
  blocked: boolean;
  sessionId: number;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}
