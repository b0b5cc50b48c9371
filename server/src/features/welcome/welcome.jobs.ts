import type { FastifyInstance } from 'fastify';
import { defineJob } from '../../jobs/queue.ts';
import { handleTelegramUpdate } from './welcome.service.ts';

export const TELEGRAM_POLL_JOB = 'welcome.telegram-poll';

/** Without a webhook secret the bot's updates are fetched with getUpdates once a minute. */
export async function pollTelegram(app: FastifyInstance): Promise<number> {
  const state = await app.db.selectFrom('telegram_state').select('value').where('key', '=', 'offset').executeTakeFirst();
  const offset = Number(state?.value ?? 0);
  const updates = await app.telegram.getUpdates(offset);
  for (const update of updates) await handleTelegramUpdate(app, update);
  const last = updates.at(-1);
  if (last) {
    await app.db
      .insertInto('telegram_state')
      .values({ key: 'offset', value: String(last.update_id + 1) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(last.update_id + 1) }))
      .execute();
  }
  return updates.length;
}

export const telegramPollJob = (app: FastifyInstance) => defineJob({ name: TELEGRAM_POLL_JOB, cron: '* * * * *', retryLimit: 0, handler: async () => {
  await pollTelegram(app);
} });
