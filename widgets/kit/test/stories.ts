import { createElement, type ReactElement } from 'react';
import { QueryProvider, createQueryClient } from '../src/query.tsx';

/* Helpers for stories and tests of widgets that read their data themselves (no vitest here: stories import it). */

/** Never settles: a call still loading. */
export const pending = <T>() => new Promise<T>(() => undefined);

/** A story's decorator: each story reads its own fake calls, in a fresh query cache. */
export const freshQueries = (Story: () => ReactElement) => createElement(QueryProvider, { client: createQueryClient(), children: createElement(Story) });
