import type { z } from 'zod';
import type { AppContext, SendableJob } from '../context.ts';

/** How pg-boss keeps at most one job per key: `short` one waiting, `singleton` one running, `stately` one of each. */
export type JobPolicy = 'standard' | 'short' | 'singleton' | 'stately';

export interface JobOptions {
  /** Attempts after the first one; a job that fails them all is recorded in `job_failures`. */
  retries: number;
  /** Seconds before the first retry; doubled on each further one when `backoff` is on. */
  retryDelaySeconds: number;
  backoff: boolean;
  /** A run taking longer fails (and is retried); `run` gets an AbortSignal that fires then. */
  expireInSeconds: number;
  /** Jobs of this kind one process runs at once. */
  concurrency: number;
  policy: JobPolicy;
}

/** What a running job knows about itself. */
export interface JobRun {
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Fires when the job's time (`expireInSeconds`) is up. */
  signal: AbortSignal;
}

/**
 * A kind of background work, defined once: its queue name, the schema of its payload, its
 * options and what it does. `ctx.jobs.send(job, payload)` only compiles with a payload of the
 * schema's input type, and is checked against the schema again at run time.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> extends SendableJob<S> {
  readonly options: JobOptions;
  /** Cron expression (UTC): the job is also enqueued on this schedule, with an empty payload. */
  readonly cron?: string;
  /**
   * What of a payload may be kept when the job fails for good (`job_failures`, read by admins):
   * secrets such as mailed codes and links must not outlive the job. Default: the payload.
   */
  redact?(payload: unknown): unknown;
  /** Whether this process's configuration uses the job at all (sandbox-only jobs, for example). */
  enabled?(ctx: AppContext): boolean;
  // Method syntax: a list of jobs of different payloads (`AnyJob[]`) holds them all.
  run(ctx: AppContext, payload: z.output<S>, job: JobRun): Promise<void>;
}

const DEFAULTS: JobOptions = { retries: 5, retryDelaySeconds: 5, backoff: true, expireInSeconds: 15 * 60, concurrency: 1, policy: 'standard' };

/** Defines a job; options not given take the defaults (5 retries with backoff from 5 s, 15 minutes, one at a time). */
export function defineJob<S extends z.ZodType>(def: Omit<JobDefinition<S>, 'options'> & { options?: Partial<JobOptions> }): JobDefinition<S> {
  return { ...def, options: { ...DEFAULTS, ...def.options } };
}

/** Any job definition, whatever its payload (for lists of jobs). */
export type AnyJob = JobDefinition;
