import { sql, type Kysely } from 'kysely';

/** The texts the service starts with; staff publish new versions in the admin panel. */
const PRIVACY_TEXT = `Политика обработки персональных данных сервиса «Нейростудия»

1. Общие положения. Настоящая политика определяет порядок обработки персональных данных пользователей сервиса в соответствии с Федеральным законом от 27.07.2006 № 152-ФЗ «О персональных данных».

2. Какие данные мы обрабатываем: адрес электронной почты, сведения о платежах и подписках, запросы к нейросетям, загруженные и созданные файлы, технические данные (IP-адрес, сведения о браузере).

3. Цели обработки: предоставление доступа к сервису, приём оплаты, уведомления о списаниях, поддержка пользователей, исполнение требований закона.

4. Срок хранения. Данные хранятся, пока существует аккаунт. После удаления аккаунта сведения о платежах, чеках и движении токенов хранятся обезличенно 5 лет для бухгалтерского учёта, остальные данные удаляются.

5. Права пользователя. Пользователь может получить свои данные, изменить их или удалить аккаунт в настройках. Запросы принимает служба поддержки.`;

const OFFER_TEXT = `Публичная оферта сервиса «Нейростудия»

1. Предмет. Сервис предоставляет доступ к нейросетям за слова и медиатокены, приобретаемые по подпискам и пакетам.

2. Оплата. Подписка продлевается автоматически каждый месяц до отмены. О предстоящем списании сервис сообщает письмом заранее: за сутки до конца пробного периода и за три дня до продления.

3. Отмена. Автопродление отменяется на странице тарифов; подписка действует до конца оплаченного периода.

4. Ответственность. Результаты работы нейросетей предоставляются «как есть».`;

/**
 * Notices before money moves and personal data (152-ФЗ).
 * `mail_notices`: one row per notice sent — unique per (subscription, period, kind), so a scheduled
 * job on any number of workers mails each exactly once. `users.notices_off`: the optional notices
 * a user turned off. Consent to the processing of personal data (time, policy version, address),
 * `deleted_at` of an erased account. `legal_documents`: versions of the policy and the offer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_notices (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      subscription_id bigint not null references subscriptions(id) on delete cascade,
      kind text not null check (kind in ('trial_end', 'renewal', 'renewal_failed', 'plan_ended')),
      period_key text not null,
      created_at timestamptz not null default now(),
      constraint mail_notices_once unique (subscription_id, period_key, kind)
    )`.execute(db);
  await sql`create index mail_notices_user_idx on mail_notices (user_id)`.execute(db);
  await sql`
    alter table users
      add column notices_off text[] not null default '{}'
        constraint users_notices_off_known check (notices_off <@ array['renewal_failed', 'plan_ended']::text[]),
      add column consent_at timestamptz,
      add column consent_version integer,
      add column consent_ip text,
      add column deleted_at timestamptz`.execute(db);
  await sql`
    create table legal_documents (
      id bigint generated always as identity primary key,
      kind text not null check (kind in ('privacy', 'offer')),
      version integer not null check (version > 0),
      body text not null check (length(body) between 1 and 100000),
      author_id bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      constraint legal_documents_version unique (kind, version)
    )`.execute(db);
  await sql`insert into legal_documents (kind, version, body) values ('privacy', 1, ${PRIVACY_TEXT}), ('offer', 1, ${OFFER_TEXT})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table legal_documents`.execute(db);
  await sql`alter table users drop column notices_off, drop column consent_at, drop column consent_version, drop column consent_ip, drop column deleted_at`.execute(db);
  await sql`drop table mail_notices`.execute(db);
}
