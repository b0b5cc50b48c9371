import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { pageQueryClient } from '../src/query.tsx';

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
