import { expect, it } from 'vitest';
import { loadEmbeddedPostgres } from '../../src/db/embedded.ts';

it('loading embedded PostgreSQL leaves no beforeExit hook that would end the process with code 0', async () => {
  const before = process.listeners('beforeExit').length;
  await loadEmbeddedPostgres();
  expect(process.listeners('beforeExit')).toHaveLength(before);
});
