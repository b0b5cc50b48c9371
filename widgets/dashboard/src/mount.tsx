import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Dashboard } from './Dashboard.tsx';

/** The dashboard; props: `{paymentUrl}` (the plans page by default). */
export const mount = createMount(widgetProps.dashboard, Dashboard);
