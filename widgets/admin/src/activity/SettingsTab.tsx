import { useState } from 'react';
import { SettingsInputSchema, type AdminSettings, type SettingsInput } from '@app/contracts/admin';
import { Alert, LoadError, Skeleton, failureMessage, formatMedia, formatWords, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec, type Value, type Values } from '../Editor.tsx';
import { when } from '../texts.ts';
import { LegalDocuments } from '../privacy/LegalDocuments.tsx';

type Key = keyof AdminSettings['defaults'];

const show = (key: Key, value: unknown): string => {
  if (typeof value === 'boolean') return value ? 'включена' : 'выключена';
  if (typeof value === 'number') return key === 'welcome_media' ? formatMedia(value) : formatWords(value);
  return typeof value === 'string' && value ? value : '—';
};

const LABELS: Record<Key, string> = {
  welcome_words: 'Подарок за подписку на канал: слова',
  welcome_media: 'Подарок за подписку на канал: медиа токены',
  referral_words: 'Бонус за приглашённого: слова',
  telegram_channel: 'Новостной канал Telegram',
  support_url: 'Ссылка поддержки',
  sandbox_payments: 'Песочница оплаты принимает платежи',
  sandbox_telegram: 'Песочница Telegram привязывает аккаунты и засчитывает подписку',
};

const KEYS = Object.keys(LABELS) as Key[];

/** The editor's fields, exactly the contract's, each hinting its default and whether it is overridden. */
export function settingsFields(s: AdminSettings): FieldSpec[] {
  const state = (key: Key) => `По умолчанию (из конфигурации): ${show(key, s.defaults[key])}${s[key] === s.defaults[key] ? '' : ' · сейчас изменено'}`;
  const sandbox = (runs: boolean, key: Key, on: string) => (runs ? `${on} ${state(key)}` : 'Не действует: ключи настроены, песочница не запущена.');
  return [
    { name: 'welcome_words', label: LABELS.welcome_words, kind: 'number', required: true, hint: state('welcome_words') },
    { name: 'welcome_media', label: LABELS.welcome_media, kind: 'number', required: true, hint: `Один знак после запятой. ${state('welcome_media')}` },
    { name: 'referral_words', label: LABELS.referral_words, kind: 'number', required: true, hint: `Начисляются пригласившему, когда приглашённый по его ссылке впервые оплатит тариф или пакет. ${state('referral_words')}` },
    { name: 'telegram_channel', label: LABELS.telegram_channel, kind: 'text', required: true, placeholder: '@neurostudio_news', hint: `@имя, ссылка https://t.me/имя или id закрытого канала (-100…). ${state('telegram_channel')}` },
    { name: 'support_url', label: LABELS.support_url, kind: 'text', required: true, placeholder: 'https://t.me/… или mailto:…', hint: `https://…, mailto:… или tg://… — ссылка «Поддержка» на страницах. ${state('support_url')}` },
    { name: 'sandbox_payments', label: LABELS.sandbox_payments, kind: 'checkbox', hint: sandbox(s.sandbox.payments, 'sandbox_payments', 'Выключенная песочница не принимает новые платежи и не списывает продления.') },
    { name: 'sandbox_telegram', label: LABELS.sandbox_telegram, kind: 'checkbox', hint: sandbox(s.sandbox.telegram, 'sandbox_telegram', 'Выключенная песочница не привязывает аккаунты и не выдаёт подарок.') },
  ];
}

/** The form's values as the summary compares them with what is in force (the editor sends what the schema made of them). */
const draftOf = (v: Values): Record<Key, Value> => Object.fromEntries(KEYS.map((k) => [k, v[k]])) as Record<Key, Value>;

/** «Настройки» (/admin/settings): what the service reads at run time, with their defaults from the configuration. */
export function SettingsTab({ api }: { api: AdminApi }) {
  const settings = useRouteQuery(api.settings);
  return (
    <div className="admin-screen">
      <Alert tone="info">
        Изменения применяются сразу, без перезапуска: каждый процесс сервиса перечитывает настройки, как только они сохранены. Значение, равное значению по умолчанию, не хранится — им снова управляет конфигурация.
      </Alert>
      {settings.isPending && <Skeleton lines={8} />}
      {settings.isError && <LoadError message={failureMessage(settings.error)} onRetry={() => void settings.refetch()} />}
      {settings.data && <SettingsEditor api={api} settings={settings.data} />}
      <LegalDocuments api={api} />
    </div>
  );
}

function SettingsEditor({ api, settings }: { api: AdminApi; settings: AdminSettings }) {
  const client = useKitQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const save = async (body: Record<string, unknown>) => {
    setDone(null);
    // The editor has checked the body with SettingsInputSchema.
    const next = await api.updateSettings({ body: body as SettingsInput });
    client.setQueryData(routeKey(api.settings.route, {}), next);
    setDone('Настройки сохранены и уже действуют');
  };
  const initial = Object.fromEntries(KEYS.map((k) => [k, settings[k]]));
  return <Editor label="Настройки" schema={SettingsInputSchema} fields={settingsFields(settings)} initial={initial} submitLabel="Сохранить" onSubmit={save} done={done} aside={(values) => <SettingsSummary settings={settings} draft={draftOf(values)} />} />;
}

/** What is in force beside the form: each value, its default, and whether it is overridden or about to change. */
export function SettingsSummary({ settings, draft }: { settings: AdminSettings; draft: Record<Key, Value> }) {
  return (
    <section className="card admin-settings-summary" aria-label="Действующие значения">
      <h3>Действующие значения</h3>
      <dl>
        {KEYS.map((k) => {
          const overridden = settings[k] !== settings.defaults[k];
          const pending = draft[k] !== settings[k];
          return (
            <div key={k}>
              <dt>{LABELS[k]}</dt>
              <dd>
                <span className="admin-settings-summary__value">{show(k, settings[k])}</span>
                <span className={`admin-badge${overridden ? ' admin-badge--admin' : ''}`}>{overridden ? 'Изменено' : 'По умолчанию'}</span>
                {pending && <span className="admin-badge admin-badge--running">Не сохранено</span>}
              </dd>
            </div>
          );
        })}
      </dl>
      <p className="admin-muted">
        Канал в приветствии:{' '}
        <a href={settings.channel_url} target="_blank" rel="noopener noreferrer">
          {settings.channel_url}
        </a>
      </p>
      <p className="admin-muted">{settings.updated_at ? `Последнее изменение: ${when(settings.updated_at)}` : 'Все значения — из конфигурации: изменений ещё не было'}</p>
    </section>
  );
}
