import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { AccountSettings } from './AccountSettings.tsx';

/** The settings page at /settings: props `{email, plansUrl}`. */
export const mount = createMount(widgetProps['account-settings'], AccountSettings);
