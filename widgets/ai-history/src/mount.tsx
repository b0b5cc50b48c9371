import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { AiHistory } from './AiHistory.tsx';

/** The history of runs: `type` image at /ai-history (with its «Тексты» tab, `?type=text`), video at /ai-history-video; `productsUrl` is where «Создать» leads. */
export const mount = createMount(widgetProps['ai-history'], AiHistory);
