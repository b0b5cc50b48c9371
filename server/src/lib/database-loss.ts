import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/database.ts';

/**
 * Keeps the process alive when a database call that nobody awaits fails because the database
 * went away. pg-boss 10 marks a finished job completed (or failed) without waiting for the call
 * (`Manager.work`'s `onFetch`); a connection lost at that moment rejects it with nobody to hear,
 * and Node would end the process. Such a failure is logged: the job stays active until its
 * expiry and is run again (every job is safe to run twice). Any other unhandled rejection still
 * ends the process, as Node does by default.
 */
export function surviveDatabaseLoss(log: Pick<Logger, 'warn'>): void {
  process.on('unhandledRejection', (reason) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    log.warn({ err: reason }, 'a database call failed with nobody waiting for it (the connection was lost); its job runs again after its expiry');
  });
}
