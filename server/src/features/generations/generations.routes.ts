import type { FastifyInstance } from 'fastify';
import { generationRoutes } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { pause } from '../../lib/pause.ts';
import { mountRoute } from '../../lib/routes.ts';
import { cancelGeneration, generationOf, history, startGeneration } from './generations.service.ts';
import { findOwnGeneration } from './generations.queries.ts';

/** How often a live run is looked at for its events. */
const EVENTS_POLL_MS = 400;

export default async function generationRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, generationRoutes.start, ({ viewer, body, files }) => startGeneration(ctx, viewer, { ...body, image: files.image?.[0], mask: files.mask?.[0] }));
  mountRoute(app, generationRoutes.history, ({ viewer, query }) => history(ctx, viewer.id, query.type, query.page));
  mountRoute(app, generationRoutes.status, ({ viewer, params }) => generationOf(ctx, viewer.id, params.id));
  // Read from the database, so it follows a run whichever process works on it.
  mountRoute(app, generationRoutes.events, async ({ viewer, params, stream }) => {
    let last = '';
    for (;;) {
      const row = await findOwnGeneration(ctx.db, viewer.id, params.id);
      if (!row) throw new AppError('NOT_FOUND', 'Генерация не найдена');
      const now = `${row.status}:${String(row.progress)}`;
      if (now !== last) {
        stream.send('progress', { status: row.status, progress: row.progress });
        last = now;
      }
      if (row.status !== 'queued' && row.status !== 'running') {
        stream.send('done', await generationOf(ctx, viewer.id, params.id));
        return;
      }
      if (!(await pause(EVENTS_POLL_MS, stream.signal))) return;
    }
  });
  mountRoute(app, generationRoutes.cancel, ({ viewer, params }) => cancelGeneration(ctx, viewer.id, params.id));
}
