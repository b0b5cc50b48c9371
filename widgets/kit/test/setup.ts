import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { pageQueryClient } from '../src/query.tsx';

// `findBy…` and `waitFor` wait for their condition, not for a time: on a loaded machine a screen
// can take seconds to render (a chat variants test once took over 10 s beside a clean clone's
// whole suite), so they wait up to 25 s, a limit that catches a hang, within the test's own 30 s
// (vitest.config.ts).
configure({ asyncUtilTimeout: 25_000 });

beforeEach(() => {
  // A failed call fails the query at once: tests that retry say so.
  pageQueryClient.setDefaultOptions({ ...pageQueryClient.getDefaultOptions(), queries: { ...pageQueryClient.getDefaultOptions().queries, retry: false } });
});

afterEach(() => {
  cleanup();
  // Every test starts with an empty cache of the page's query client.
  pageQueryClient.clear();
  window.localStorage.clear();
});
