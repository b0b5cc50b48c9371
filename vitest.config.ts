import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts', 'host-pages/src/**/*.test.ts', 'shared-contracts/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/support/global-setup.ts'],
          testTimeout: 30_000,
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
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/support/global-setup.ts'],
          fileParallelism: false,
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
