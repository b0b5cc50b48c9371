import { expect, it } from 'vitest';
import { isAlive, loadEmbeddedPostgres } from '../../src/db/embedded.ts';

it('loading embedded PostgreSQL leaves no beforeExit hook that would end the process with code 0, nor an exit hook that rejects as it ends', async () => {
  const before = { beforeExit: process.listeners('beforeExit').length, exit: process.listeners('exit').length };
  await loadEmbeddedPostgres();
  expect({ beforeExit: process.listeners('beforeExit').length, exit: process.listeners('exit').length }).toEqual(before);
  // The signal hooks (which can wait for the cluster to stop) stay.
  expect(process.listeners('SIGTERM').length).toBeGreaterThan(0);
});

it('isAlive answers for real pids only: never for 0 or -1 (which kill() reads as process groups)', () => {
  expect(isAlive(process.pid)).toBe(true);
  expect(isAlive(-1)).toBe(false);
  expect(isAlive(0)).toBe(false);
  expect(isAlive(2 ** 22 + 12345)).toBe(false);
});
