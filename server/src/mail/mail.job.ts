import type { FastifyInstance } from 'fastify';
import { defineJob } from '../jobs/queue.ts';
import type { MailMessage } from './mailer.ts';

export const MAIL_JOB = 'mail.send';

/** Outgoing mail is a job: enqueued with the data that caused it, retried if SMTP fails. */
export const mailJob = (app: FastifyInstance) =>
  defineJob<MailMessage>({
    name: MAIL_JOB,
    retryLimit: 8,
    handler: (message) => app.mailer.send(message),
  });
