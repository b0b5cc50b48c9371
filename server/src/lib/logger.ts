import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from '../config.ts';

/** Where log lines go: stdout, or a test's capture. */
export interface LogOutput {
  write(line: string): unknown;
  isTTY?: boolean;
}

/** JSON lines for log collectors in production; one readable line an event for a person everywhere else. */
export const readableLogs = (env: Config['env']): boolean => env !== 'production';

/**
 * The process's logger. Production: pino's JSON lines. Development (and tests): each line
 * formatted as it is written, in this process, by pino-pretty's formatter
 * (`17:03:12 INFO: GET /api/new/user 200 3 ms`), colored when the output is a terminal.
 */
export function createLogger(config: Pick<Config, 'env' | 'logLevel'>, output: LogOutput = process.stdout): Logger {
  if (!readableLogs(config.env)) return pino({ level: config.logLevel }, output);
  const format = prettyFactory({ colorize: output.isTTY === true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId' });
  return pino({ level: config.logLevel }, { write: (line: string) => output.write(format(line)) });
}
