import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { ResetRequest } from './ResetRequest.tsx';

/** The password reset request form; props: `{email}` to prefill. */
export const mount = createMount(widgetProps['password-reset-request'], ResetRequest);
