import type { aiApi } from './api.ts';

/*
 * What the screens take from the contract's types. The columns each catalogue list sorts by: The contract's `*_SORTS` constants live beside its
 * schemas (not in the browser's modules), so they are repeated here, checked against the
 * contract's types both ways: a column the server does not take fails to compile, and so does
 * one it takes that is missing here.
 */

type Api = typeof aiApi;
type SortOf<K extends keyof Api> = Parameters<Api[K]>[0] extends { query: { sort?: infer S } } ? NonNullable<S> : never;
/** The JSON body a call of `K` sends. */
export type BodyOf<K extends keyof Api> = Exclude<Parameters<Api[K]>[0]['body'], FormData | undefined>;
type Exactly<A, B> = [Exclude<A, B>] extends [never] ? ([Exclude<B, A>] extends [never] ? true : false) : false;

export const PRODUCT_SORTS = ['id', 'name', 'sort', 'created_at'] as const satisfies readonly SortOf<'aiProducts'>[];
export const CATEGORY_SORTS = ['id', 'name', 'sort', 'created_at'] as const satisfies readonly SortOf<'aiCategories'>[];
export const MODEL_SORTS = ['id', 'name', 'kind', 'sort', 'created_at'] as const satisfies readonly SortOf<'aiModels'>[];
export const PROVIDER_SORTS = ['id', 'name', 'created_at'] as const satisfies readonly SortOf<'providers'>[];

export const SORTS_MATCH_THE_CONTRACT: [
  Exactly<SortOf<'aiProducts'>, (typeof PRODUCT_SORTS)[number]>,
  Exactly<SortOf<'aiCategories'>, (typeof CATEGORY_SORTS)[number]>,
  Exactly<SortOf<'aiModels'>, (typeof MODEL_SORTS)[number]>,
  Exactly<SortOf<'providers'>, (typeof PROVIDER_SORTS)[number]>,
] = [true, true, true, true];
