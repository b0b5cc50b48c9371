/**
 * The settings' calls as the browser gets them (`@app/contracts/privacy`): endpoints typed by their
 * contracts, the forms' schemas and texts. Bundled into the account-settings widget, the one that uses them.
 */
import type { privacyRoutes } from './privacy.contract.ts';
import { privacyPaths } from './privacy.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './privacy.browser.ts';
export type { NoticeSettings, LegalDocument } from './privacy.contract.ts';

export const privacyEndpoints: ClientRoutes<typeof privacyRoutes> = privacyPaths;
