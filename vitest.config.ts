import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Test files mostly wait on PostgreSQL, sockets and browsers: on a 2-core machine three at once
    // finish the suite sooner than vitest's default of one (cores − 1). e2e and load run one at a time.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts', 'host-pages/src/**/*.test.ts', 'shared-contracts/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/support/global-setup.ts'],
          // A worker imports the server once for all its files, not once per file: every test builds
          // its own app (and database) through the server's factories, and what the server keeps at
          // module level is keyed by the database it serves. 304 s → 218 s for this project, measured.
          // (The widget tests stay isolated: jsdom and React state leak from file to file.)
          isolate: false,
          // Limits that catch a hang, not a speed: three files at once on two cores beside CI's
          // checks and Storybook build, the slowest tests under the default took 19 s here; a CI
          // machine twice as slow must not fail them.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'widgets',
          include: ['widgets/*/src/**/*.test.tsx', 'widgets/*/src/**/*.test.ts', 'storybook/stories.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['widgets/kit/test/setup.ts'],
          // As the server's: the slowest widget test took 7.5 s here beside the suite's other files.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/support/global-setup.ts'],
          fileParallelism: false,
          // As the server's: one import of the server and the harness for every file (582 s → 490 s
          // for this project, measured). Two files at once gained nothing: Chromium keeps both cores busy.
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // After the server and widget tests, one file at a time.
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The load and fault test (bench/load): after every other project, alone on the machine.
        test: {
          name: 'load',
          include: ['bench/load/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
