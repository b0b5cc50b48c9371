/**
 * The balance history as the browser gets it (`@app/contracts/balance`): its endpoint typed by its
 * contract and the page size. Bundled into the balance-history widget, the one widget that uses it
 * (a host module would add its loader entry to every page's boot chunk).
 */
import type { balanceRoutes } from './balance.contract.ts';
import { balancePaths } from './balance.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './balance.browser.ts';
export type { BalanceLine, BalanceLineKind } from './balance.contract.ts';

export const balanceEndpoints: ClientRoutes<typeof balanceRoutes> = balancePaths;
