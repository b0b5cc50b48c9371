import { bootstrap } from '../bootstrap.ts';

const runtime = await bootstrap({ migrate: true, seed: false });
runtime.log.info('database is migrated');
await runtime.close();
