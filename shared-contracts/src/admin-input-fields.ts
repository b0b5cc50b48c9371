import * as z from 'zod/mini';
import './zod-messages.ts';
import { storableText } from './fields.ts';

/* The pieces the admin panel's body schemas are built of (`admin-inputs.ts`, `admin-ai-inputs.ts`). */

/** An integer with `message` for anything else (a non-number, a fraction). */
export const integer = (message: string, ...checks: z.core.$ZodCheck<number>[]) => z.number({ error: message }).check(z.int(message), ...checks);

/** A text field: trimmed, `min`..`max` characters, nothing the database cannot keep (NUL, lone surrogates). */
export const text = (missing: string, max: number, maxMessage: string, min = 0, minMessage = missing) =>
  z.string({ error: missing }).check(z.trim(), ...(min > 0 ? [z.minLength(min, minMessage)] : []), z.maxLength(max, maxMessage), storableText());

export const bool = (what: string) => z.boolean({ error: `${what}: true или false` });

/** Whole multiples of `step` (0.01 for kopecks, 0.1 for tenths of a media token), within floating-point error. */
export const multipleOf = (step: number) => (n: number) => Math.abs(n / step - Math.round(n / step)) < 1e-6;

/** A change of a record: at least one field. */
export const someField = (body: Record<string, unknown>) => Object.values(body).some((v) => v !== undefined);
export const NOTHING_TO_CHANGE = 'Укажите, что изменить';

export const requestId = z.uuid({ error: 'Идентификатор запроса должен быть UUID' });
export const reason = text('Укажите причину', 500, 'Не длиннее 500 символов', 3, 'Опишите причину (от 3 символов)');
