import { z } from './zod-ru.ts';

/** `text` of an error reply: one message, or messages per field (seed §8). */
export const ErrorTextSchema = z.union([z.string(), z.record(z.string(), z.array(z.string()))]);
export type ErrorText = z.infer<typeof ErrorTextSchema>;

/** Failure reply of every `/api` call (PRODUCT.md "API conventions"). */
export const ErrorEnvelopeSchema = z.object({
  status: z.literal('error'),
  text: ErrorTextSchema,
  code: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** Success reply of every `/api` call: the data sits in `json`. */
export const successEnvelope = <T extends z.core.$ZodType>(json: T) =>
  z.object({ status: z.literal('success'), json });

/** Paginated list payload: `json.data` and `json.last_page` (seed §3). */
export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), last_page: z.number().int().min(1) });

/** `?page=n`, 1-based; a missing page is the first. */
export const PageQuerySchema = z.object({
  page: z.coerce.number({ error: 'Номер страницы должен быть числом' }).int('Номер страницы должен быть целым').min(1, 'Номер страницы должен быть не меньше 1').max(1_000_000, 'Слишком большой номер страницы').default(1),
});

/** A timestamp on the wire: ISO 8601 in UTC. */
export const TimestampSchema = z.string();
