import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { WelcomeNotice } from './WelcomeNotice.tsx';

/** The welcome notice offering the gift for joining the news channel; no props. */
export const mount = createMount(widgetProps['welcome-notice'], WelcomeNotice);
