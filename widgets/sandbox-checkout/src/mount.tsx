import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { SandboxCheckout } from './SandboxCheckout.tsx';

/** The sandbox checkout form; props: `{payment_id, amount, description, email, recurrent}`. */
export const mount = createMount(widgetProps['sandbox-checkout'], SandboxCheckout);
