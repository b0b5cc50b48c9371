import { z } from 'zod';
import './zod-messages.ts';

/** Classic zod with the Russian fallback messages: the server-side schemas (replies, queries) use it. */
export { z };
