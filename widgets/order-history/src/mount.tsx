import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { OrderHistory } from './OrderHistory.tsx';

/** Order history with the tabs «Подписки» and «Авто списания»; no props. */
export const mount = createMount(widgetProps['order-history'], OrderHistory);
