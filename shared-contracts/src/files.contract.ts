import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema } from './fields.ts';

/** `?download=1` asks for the file as an attachment (a download) instead of inline. */
export const FileQuerySchema = z.object({
  download: z
    .enum(['0', '1', 'true', 'false'], { error: 'Параметр download должен быть 0 или 1' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export const fileRoutes = {
  file: defineRoute({
    method: 'GET',
    path: '/api/new/files/:id',
    access: 'user',
    raw: true,
    summary:
      'A stored file, to its owner or an admin (others get 404): the bytes with their own Content-Type, a single Range, ?download=1 for an attachment',
    tags: ['files'],
    params: z.object({ id: IdSchema }),
    query: FileQuerySchema,
    response: z.unknown().meta({ description: 'The file’s bytes (not JSON), with its Content-Type' }),
  }),
} as const;
