import { ERROR_CODES, type ErrorCode, type ErrorText } from '@app/contracts';

/** A failure a route answers with: the code picks the status, `text` overrides the message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly text: ErrorText;
  readonly status: number;
  /** Seconds after which a retry may succeed, sent as `Retry-After` (a rate limit). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, text?: ErrorText, options: { retryAfterSeconds?: number } = {}) {
    super(typeof text === 'string' ? text : ERROR_CODES[code].message);
    this.code = code;
    this.text = text ?? ERROR_CODES[code].message;
    this.status = ERROR_CODES[code].status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A validation failure of one field, shown beside that field. */
export const fieldError = (field: string, message: string, code: ErrorCode = 'VALIDATION') =>
  new AppError(code, { [field]: [message] });
