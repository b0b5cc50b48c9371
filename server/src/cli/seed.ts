import { bootstrap } from '../bootstrap.ts';
import { seed } from '../db/seed.ts';
import { createStorage } from '../storage/create-storage.ts';

const runtime = await bootstrap({ seed: false });
const storage = createStorage(runtime.config.storage);
try {
  await seed(runtime.db, runtime.log, storage);
} finally {
  storage.close();
  await runtime.close();
}
