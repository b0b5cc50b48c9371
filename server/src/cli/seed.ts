import { bootstrap } from '../bootstrap.ts';
import { seed } from '../db/seed.ts';

const runtime = await bootstrap({ seed: false });
await seed(runtime.db, runtime.log);
await runtime.close();
