/**
 * The generation catalogue as the browser gets it (`@app/contracts/generation`): the products'
 * and runs' endpoints typed by their contracts, variants, limits, the start form's fields and
 * texts. Not in `@app/contracts/browser` (which every page loads): the loader supplies it as a
 * lazy host module, fetched only by the pages of the catalogue and the history.
 */
import type { catalogRoutes } from './catalog.contract.ts';
import type { generationRoutes } from './generation.contract.ts';
import { catalogPaths } from './catalog.browser.ts';
import { generationPaths } from './generation.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './catalog.browser.ts';
export * from './generation.browser.ts';
export type { CatalogCategory, CatalogProduct, ProductDetail, ProductField, ProductPrice } from './catalog.contract.ts';
export type { Generation } from './generation.contract.ts';

/*
 * Typed without calling `clientRoutes`: this module imports nothing at run time from the modules
 * the loader's boot chunk holds, or the loader's build would split them (route.ts) into a chunk
 * of their own that every page would then fetch.
 */
export const catalogEndpoints: ClientRoutes<typeof catalogRoutes> = catalogPaths;
export const generationEndpoints: ClientRoutes<typeof generationRoutes> = generationPaths;
