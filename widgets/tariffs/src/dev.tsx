import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { frontend: false, paymentScriptUrl: '/sandbox/cloudpayments.js', sandbox: true });
