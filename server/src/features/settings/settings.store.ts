import type { Logger } from 'pino';
import { REFERRAL_BONUS_WORDS, SettingsInputSchema, WELCOME_GIFT, type Settings } from '@app/contracts';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/database.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { AppError } from '../../lib/app-error.ts';
import { SETTINGS_CHANNEL, readSettingRows } from './settings.queries.ts';

type SettingKey = keyof Settings;
const KEYS = Object.keys(SettingsInputSchema.shape) as SettingKey[];

/** What applies until an admin changes it: the environment's values and the product's welcome gift. */
export function defaultSettings(config: Config): Settings {
  return {
    welcome_words: WELCOME_GIFT.words,
    welcome_media: WELCOME_GIFT.media,
    referral_words: REFERRAL_BONUS_WORDS,
    telegram_channel: config.telegram.channel,
    support_url: config.supportUrl,
    sandbox_payments: true,
    sandbox_telegram: true,
  };
}

/**
 * The settings in force, held by every process and read synchronously (pages read the support
 * link on every render): loaded at start, read again when any process NOTIFYs a change (sent in
 * the change's transaction, so it arrives once the change is committed) and after the notification
 * connection was lost. A change never needs a restart.
 */
export class SettingsStore {
  private values: Settings;
  private changedAt: Date | null = null;
  private started = 0;
  private shown = 0;

  constructor(
    readonly defaults: Settings,
    private readonly log: Logger,
  ) {
    this.values = defaults;
  }

  get current(): Settings {
    return this.values;
  }

  /** When an admin last changed a setting that still differs from its default. */
  get updatedAt(): Date | null {
    return this.changedAt;
  }

  /** The settings the stored rows make, over the defaults (a stored value that is no longer valid gives way to its default). */
  valuesOf(rows: readonly { key: string; value: unknown }[]): Settings {
    const values: Record<string, unknown> = { ...this.defaults };
    for (const row of rows) {
      const key = KEYS.find((k) => k === row.key);
      if (!key) continue;
      const parsed = SettingsInputSchema.shape[key].safeParse(row.value);
      if (parsed.success) values[key] = parsed.data;
      else this.log.warn({ key: row.key }, 'a stored setting is invalid: its default applies');
    }
    return values as Settings;
  }

  /** Reads the settings; of loads that overlap, the one started last wins. */
  async load(db: Executor): Promise<Settings> {
    const seq = ++this.started;
    const rows = await readSettingRows(db);
    if (seq > this.shown) {
      this.shown = seq;
      this.values = this.valuesOf(rows);
      this.changedAt = rows.reduce<Date | null>((latest, r) => (latest && latest > r.updated_at ? latest : r.updated_at), null);
    }
    return this.values;
  }

  listen(listener: PgListener, db: Executor): void {
    const reload = () => {
      this.load(db).catch((err: unknown) => this.log.warn({ err }, 'settings could not be read again'));
    };
    listener.subscribe(SETTINGS_CHANNEL, { onMessage: reload, onReconnect: reload });
  }
}

/**
 * Refuses what a sandbox would do while an admin has switched it off. Only a sandbox that runs
 * (no keys configured) can be switched off; real CloudPayments and Telegram are never affected.
 */
export function assertSandboxOn(ctx: { config: Config; settings: SettingsStore }, which: 'payments' | 'telegram'): void {
  const running = which === 'payments' ? ctx.config.cloudpayments.sandbox : ctx.config.telegram.sandbox;
  const on = which === 'payments' ? ctx.settings.current.sandbox_payments : ctx.settings.current.sandbox_telegram;
  if (running && !on) throw new AppError('SANDBOX_DISABLED');
}
