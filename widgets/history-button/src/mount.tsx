import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { HistoryButton } from './HistoryButton.tsx';

/** A button-styled link; props: `{href, label}` (the order history by default). */
export const mount = createMount(widgetProps['history-button'], HistoryButton);
