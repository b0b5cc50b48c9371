import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { handleTelegramUpdate } from './welcome.service.ts';
import { saveTelegramOffset, telegramOffset } from './welcome.queries.ts';

/** Without a webhook secret the bot's updates are fetched with getUpdates once a minute. */
export async function pollTelegram(ctx: AppContext): Promise<number> {
  const updates = await ctx.telegram.getUpdates(await telegramOffset(ctx.db));
  for (const update of updates) await handleTelegramUpdate(ctx, update);
  const last = updates.at(-1);
  if (last) await saveTelegramOffset(ctx.db, last.update_id + 1);
  return updates.length;
}

export const telegramPollJob = defineJob({
  name: 'welcome.telegram-poll',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 0, policy: 'singleton' },
  enabled: (ctx) => Boolean(ctx.config.telegram.botToken) && !ctx.config.telegram.webhookSecret,
  run: async (ctx) => {
    await pollTelegram(ctx);
  },
});
