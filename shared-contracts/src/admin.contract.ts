import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { PageQuerySchema, TimestampSchema, paginated } from './envelope.ts';
import { adminPaths } from './admin.browser.ts';

/** A background job that failed every attempt (mail, payment calls, generations…). */
export const JobFailureSchema = z.object({
  id: z.number().int(),
  job_id: z.string(),
  queue: z.string(),
  payload: z.unknown(),
  error: z.string(),
  attempts: z.number().int(),
  failed_at: TimestampSchema,
  resolved_at: TimestampSchema.nullable(),
});
export type JobFailure = z.infer<typeof JobFailureSchema>;

export const JobFailuresQuerySchema = PageQuerySchema.extend({
  /** `1`: only the ones nobody has dealt with yet. */
  unresolved: z.enum(['0', '1'], { error: 'Параметр unresolved должен быть 0 или 1' }).default('0'),
});

/** Admin calls (`/api/admin/*`): admins only, 401 for guests, 403 for everyone else. */
export const adminRoutes = {
  jobFailures: defineRoute({
    ...adminPaths.jobFailures,
    summary: 'Background jobs that failed every attempt, newest first, 20 a page',
    tags: ['admin'],
    query: JobFailuresQuerySchema,
    response: paginated(JobFailureSchema),
  }),
} as const;
