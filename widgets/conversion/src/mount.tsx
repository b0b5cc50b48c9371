import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Conversion } from './Conversion.tsx';

/** Conversion-tracking stub; props: `{payments}` (1 right after a payment). Renders nothing. */
export const mount = createMount(widgetProps.conversion, Conversion);
