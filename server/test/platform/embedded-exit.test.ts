import { expect, it } from 'vitest';
import { isAlive, loadEmbeddedPostgres } from '../../src/db/embedded.ts';

it('loading embedded PostgreSQL leaves no beforeExit hook that would end the process with code 0', async () => {
  const before = process.listeners('beforeExit').length;
  await loadEmbeddedPostgres();
  expect(process.listeners('beforeExit')).toHaveLength(before);
});

it('isAlive answers for real pids only: never for 0 or -1 (which kill() reads as process groups)', () => {
  expect(isAlive(process.pid)).toBe(true);
  expect(isAlive(-1)).toBe(false);
  expect(isAlive(0)).toBe(false);
  expect(isAlive(2 ** 22 + 12345)).toBe(false);
});
