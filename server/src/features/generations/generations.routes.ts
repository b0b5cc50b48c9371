import type { FastifyInstance } from 'fastify';
import { generationRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { cancelGeneration, generationOf, history, startGeneration } from './generations.service.ts';

export default async function generationRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, generationRoutes.start, ({ viewer, body, files }) => startGeneration(ctx, viewer, { ...body, image: files.image?.[0], mask: files.mask?.[0] }));
  mountRoute(app, generationRoutes.history, ({ viewer, query }) => history(ctx, viewer.id, query.type, query.page));
  mountRoute(app, generationRoutes.status, ({ viewer, params }) => generationOf(ctx, viewer.id, params.id));
  // Read at open and when final; every change in between comes by NOTIFY, from whichever process works on the run.
  mountRoute(app, generationRoutes.events, async ({ viewer, params, stream }) => {
    for await (const e of ctx.generationEvents.follow(viewer.id, params.id, stream.signal)) {
      if (e.event === 'progress') stream.send('progress', e.state);
      else stream.send('done', e.run);
    }
  });
  mountRoute(app, generationRoutes.cancel, ({ viewer, params }) => cancelGeneration(ctx, viewer.id, params.id));
}
