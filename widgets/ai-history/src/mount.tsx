import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { AiHistory } from './AiHistory.tsx';

/** The history of runs: `type` image at /ai-history (with its «Тексты» tab), video at /ai-history-video. */
export const mount = createMount(widgetProps['ai-history'], AiHistory);
