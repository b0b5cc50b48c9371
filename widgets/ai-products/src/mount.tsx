import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { AiProducts } from './AiProducts.tsx';

/** The generation catalogue: the list at /ai-products (?type=video) and each product's screen at /ai-products/{variant}/{id}. */
export const mount = createMount(widgetProps['ai-products'], AiProducts);
