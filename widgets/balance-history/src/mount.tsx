import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { BalanceHistory } from './BalanceHistory.tsx';

/** The balance history at /dashboard/balance; no props. */
export const mount = createMount(widgetProps['balance-history'], BalanceHistory);
