import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Tariffs } from './Tariffs.tsx';

/** Tariff selection and payment; props: `{frontend, paymentScriptUrl, sandbox}`. */
export const mount = createMount(widgetProps.tariffs, Tariffs);
