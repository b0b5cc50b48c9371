import { ERROR_CODES, type ErrorText } from '@app/contracts';

/**
 * Failed checks as the seed's per-field object (`{field: [messages]}`), each message once; a
 * failure of the whole value (no field) is one message.
 */
export function fieldErrors(issues: readonly { field: string | undefined; message?: string }[]): ErrorText {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const message = issue.message ?? ERROR_CODES.VALIDATION.message;
    if (!issue.field) return message;
    const list = (fields[issue.field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}

/** Issues of a zod check (the multipart fields of a route) in the same shape as JSON bodies get. */
export const zodFieldErrors = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  fieldErrors(issues.map((i) => ({ field: i.path[0] === undefined ? undefined : String(i.path[0]), message: i.message })));

/** Issues of Fastify's schema validation (`instancePath` like `/email`). */
export const schemaFieldErrors = (issues: readonly { instancePath: string; message?: string }[]) =>
  fieldErrors(issues.map((i) => ({ field: i.instancePath.split('/').filter(Boolean)[0], message: i.message })));
