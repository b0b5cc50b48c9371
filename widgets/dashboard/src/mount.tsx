import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Dashboard } from './Dashboard.tsx';

/** The dashboard; props: `{paymentUrl, historyUrl}` (seed links by default). */
export const mount = createMount(widgetProps.dashboard, Dashboard);
