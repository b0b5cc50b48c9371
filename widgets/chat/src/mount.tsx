import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Chat } from './Chat.tsx';

/** The AI chat at /chat; props: `{plansUrl, packagesUrl}` (where the too-few-words panel sends the user). */
export const mount = createMount(widgetProps.chat, Chat);
