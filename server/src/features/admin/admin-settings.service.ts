import type { AdminSettings, SettingsChange } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { lockSettings, readSettingRows, settingsChanged, writeSettings } from '../settings/settings.queries.ts';
import { channelUrl } from '../welcome/welcome.service.ts';
import { recordAudit } from './audit.queries.ts';

/** The settings in force (read again, so an admin sees what every process uses), their defaults and the sandboxes this installation runs. */
export async function adminSettings(ctx: AppContext): Promise<AdminSettings> {
  const current = await ctx.settings.load(ctx.db);
  return {
    ...current,
    defaults: ctx.settings.defaults,
    channel_url: channelUrl(current.telegram_channel),
    sandbox: { payments: ctx.config.cloudpayments.sandbox, telegram: ctx.config.telegram.sandbox },
    updated_at: ctx.settings.updatedAt?.toISOString() ?? null,
  };
}

/**
 * Changes the settings in one transaction with its audit record and a NOTIFY that makes every
 * process read them again when it commits; this process reads them before answering. A setting
 * set back to its default is forgotten, so the environment decides it again.
 */
export async function updateSettings(ctx: AppContext, actor: Viewer, input: SettingsChange): Promise<AdminSettings> {
  await ctx.db.transaction().execute(async (tx) => {
    await lockSettings(tx);
    const before = ctx.settings.valuesOf(await readSettingRows(tx));
    if (JSON.stringify(before) === JSON.stringify({ ...before, ...input })) return;
    await writeSettings(tx, input, ctx.settings.defaults, actor.id);
    await recordAudit(tx, { actorId: actor.id, action: 'settings.update', entity: 'settings', entityId: 'global', before, after: { ...before, ...input } });
    await settingsChanged(tx);
  });
  return adminSettings(ctx);
}
