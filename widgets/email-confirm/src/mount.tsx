import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { EmailConfirm } from './EmailConfirm.tsx';

/** The email confirmation overlay for unconfirmed users; props: `{email, supportUrl}`. */
export const mount = createMount(widgetProps['email-confirm'], EmailConfirm);
