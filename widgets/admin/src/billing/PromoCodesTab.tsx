import { useState } from 'react';
import { PromoCodeInputSchema, PromoCodeUpdateSchema, type AdminPromoCode, type AdminPromoCodeDetail, type PromoCodeInput } from '@app/contracts/admin';
import { formatMedia, formatWords, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec, type Values } from '../Editor.tsx';
import { when } from '../texts.ts';
import { BillingList } from './BillingList.tsx';
import { useListAddress } from './list.ts';
import { TariffSections } from './TariffSections.tsx';
import { At, Loading, RoutedLink } from './ui.tsx';

const PATH = '/admin/promo-codes';
const FALLBACK_SORT = 'id';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

const STATES: Record<AdminPromoCode['state'], { label: string; tone: string }> = {
  active: { label: 'Действует', tone: 'success' },
  scheduled: { label: 'Ещё не начался', tone: 'running' },
  expired: { label: 'Срок истёк', tone: '' },
  used_up: { label: 'Закончился', tone: '' },
  disabled: { label: 'Отключён', tone: 'danger' },
};

/** What a code gives, in staff's words. */
export function promoGrant(p: Pick<AdminPromoCode, 'kind' | 'words' | 'media' | 'discount_percent' | 'tariff'>): string {
  if (p.kind === 'discount') return `Скидка ${String(p.discount_percent)} % на первую оплату ${p.tariff ? `тарифа «${p.tariff.name}»` : 'любого тарифа'}`;
  return [p.words > 0 ? `${formatWords(p.words)} слов` : null, p.media > 0 ? `${formatMedia(p.media)} медиа` : null].filter(Boolean).join(' + ');
}

const period = (p: Pick<AdminPromoCode, 'starts_on' | 'ends_on'>) => {
  const day = (d: string) => d.split('-').reverse().join('.');
  if (!p.starts_on && !p.ends_on) return 'Без срока';
  return `${p.starts_on ? `с ${day(p.starts_on)}` : ''}${p.starts_on && p.ends_on ? ' ' : ''}${p.ends_on ? `по ${day(p.ends_on)}` : ''}`;
};

export const PROMO_COLUMNS: readonly Column<AdminPromoCode>[] = [
  { key: 'code', label: 'Код', sortable: true, render: (p) => <code className="admin-code">{p.code}</code> },
  { key: 'grant', label: 'Что даёт', render: (p) => promoGrant(p) },
  { key: 'uses', label: 'Использований', sortable: true, numeric: true, render: (p) => (p.max_uses === null ? `${String(p.uses)} из ∞` : `${String(p.uses)} из ${String(p.max_uses)}`) },
  { key: 'audience', label: 'Для кого', render: (p) => (p.new_users_only ? 'Новые' : 'Все') },
  { key: 'period', label: 'Срок', render: (p) => period(p) },
  { key: 'state', label: 'Состояние', render: (p) => <span className={`admin-badge${STATES[p.state].tone ? ` admin-badge--${STATES[p.state].tone}` : ''}`}>{STATES[p.state].label}</span> },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (p) => p.id },
  { key: 'created_at', label: 'Создан', sortable: true, render: (p) => <At iso={p.created_at} /> },
];

/** «Тарифы» › «Промокоды» (/admin/promo-codes): the codes with their uses, a new code, one code's limits and redemptions. */
export function PromoCodesTab({ api, id, search, navigate }: { api: AdminApi; id: number | null; search: string; navigate: Navigate }) {
  const params = new URLSearchParams(search);
  return (
    <>
      <TariffSections current="promo" navigate={navigate} />
      {id !== null ? <PromoScreen key={id} api={api} id={id} created={params.has('created')} navigate={navigate} /> : params.has('new') ? <NewPromo api={api} navigate={navigate} /> : <PromoList api={api} search={search} navigate={navigate} />}
    </>
  );
}

function PromoList({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns: PROMO_COLUMNS, filters: [], navigate });
  const { query } = address;
  const list = useRouteQuery(api.promoCodes, { query: { q: query.q, sort: address.sort as 'id', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <BillingList
      title="Промокоды"
      columns={PROMO_COLUMNS}
      list={list}
      address={address}
      search={search}
      navigate={navigate}
      searchLabel="Поиск по коду или заметке"
      empty="Промокодов пока нет"
      screens={{ path: PATH, newLabel: 'Новый промокод' }}
    />
  );
}

const isTokens = (v: Values) => v.kind !== 'discount';

const LIMIT_FIELDS: readonly FieldSpec[] = [
  { name: 'max_uses', label: 'Использований всего', kind: 'number', nullable: true, hint: 'Пусто — без ограничения. Каждый пользователь активирует код один раз.' },
  { name: 'new_users_only', label: 'Только для новых пользователей (ещё ничего не оплачивали)', kind: 'checkbox' },
  { name: 'starts_on', label: 'Действует с', kind: 'text', nullable: true, placeholder: 'ГГГГ-ММ-ДД', hint: 'По московскому времени, с начала дня. Пусто — сразу.' },
  { name: 'ends_on', label: 'Действует по', kind: 'text', nullable: true, placeholder: 'ГГГГ-ММ-ДД', hint: 'Включительно, до конца дня. Пусто — бессрочно.' },
  { name: 'note', label: 'Заметка для сотрудников', kind: 'textarea', nullable: true, maxLength: 500 },
  { name: 'active', label: 'Действует (снимите, чтобы отключить)', kind: 'checkbox' },
];

function newFields(plans: readonly { id: number; name: string }[]): FieldSpec[] {
  return [
    { name: 'code', label: 'Код', kind: 'text', required: true, maxLength: 32, placeholder: 'WELCOME2026', hint: 'Латинские буквы и цифры, 4–32; регистр не важен.' },
    { name: 'kind', label: 'Что даёт', kind: 'select', required: true, options: [{ value: 'tokens', label: 'Слова и медиа токены' }, { value: 'discount', label: 'Скидку на первую оплату тарифа' }] },
    { name: 'words', label: 'Слов', kind: 'number', shownWhen: isTokens },
    { name: 'media', label: 'Медиа токенов', kind: 'number', hint: 'Один знак после запятой', shownWhen: isTokens },
    { name: 'discount_percent', label: 'Скидка, %', kind: 'number', nullable: true, hint: 'От 1 до 99; первая оплата не бывает меньше 1 ₽, продления — по полной цене.', shownWhen: (v) => !isTokens(v) },
    { name: 'tariff_id', label: 'Тариф', kind: 'select', numeric: true, nullable: true, options: [{ value: '', label: 'Любой тариф' }, ...plans.map((p) => ({ value: String(p.id), label: p.name }))], shownWhen: (v) => !isTokens(v) },
    ...LIMIT_FIELDS,
  ];
}

const NEW_PROMO: Values = { kind: 'tokens', words: 1000, media: 0, new_users_only: false, active: true };

function NewPromo({ api, navigate }: { api: AdminApi; navigate: Navigate }) {
  const client = useKitQueryClient();
  const plans = useRouteQuery(api.tariffs, { query: { q: '', sort: 'sort', dir: 'asc', page: 1 } });
  const onSubmit = async (checked: Record<string, unknown>) => {
    const saved = await api.createPromoCode({ body: checked as PromoCodeInput });
    client.setQueryData(routeKey(api.promoCode.route, { params: { id: saved.id } }), saved);
    void client.invalidateQueries({ queryKey: routeKey(api.promoCodes.route) });
    navigate(`${PATH}/${String(saved.id)}?created=1`, { replace: true });
  };
  return (
    <div className="admin-screen">
      <RoutedLink className="admin-back" href={PATH} navigate={navigate}>
        ← Все промокоды
      </RoutedLink>
      <h2 className="admin-screen__title">Новый промокод</h2>
      <Loading query={plans}>
        {() => (
          <Editor label="Новый промокод" fields={newFields((plans.data?.data ?? []).filter((p) => p.subscriptions_type !== 3))} initial={NEW_PROMO} schema={PromoCodeInputSchema} submitLabel="Создать промокод" onSubmit={onSubmit} />
        )}
      </Loading>
    </div>
  );
}

function PromoScreen({ api, id, created, navigate }: { api: AdminApi; id: number; created: boolean; navigate: Navigate }) {
  const promo = useRouteQuery(api.promoCode, { params: { id } });
  return (
    <div className="admin-screen">
      <RoutedLink className="admin-back" href={PATH} navigate={navigate}>
        ← Все промокоды
      </RoutedLink>
      <Loading query={promo}>{() => promo.data && <PromoForm api={api} promo={promo.data} created={created} />}</Loading>
    </div>
  );
}

function PromoForm({ api, promo, created }: { api: AdminApi; promo: AdminPromoCodeDetail; created: boolean }) {
  const client = useKitQueryClient();
  const [done, setDone] = useState<string | null>(created ? 'Промокод создан: пользователи уже могут его активировать.' : null);
  const onSubmit = async (checked: Record<string, unknown>) => {
    setDone(null);
    const saved = await api.updatePromoCode({ params: { id: promo.id }, body: checked });
    client.setQueryData(routeKey(api.promoCode.route, { params: { id: promo.id } }), saved);
    void client.invalidateQueries({ queryKey: routeKey(api.promoCodes.route) });
    setDone(saved.active ? 'Сохранено.' : 'Сохранено: промокод отключён, активировать его больше нельзя.');
  };
  const state = STATES[promo.state];
  return (
    <>
      <header className="admin-screen__head">
        <div>
          <h2 className="admin-screen__title">
            Промокод <code className="admin-code">{promo.code}</code> <span className={`admin-badge${state.tone ? ` admin-badge--${state.tone}` : ''}`}>{state.label}</span>
          </h2>
          <p className="admin-screen__meta">
            {promoGrant(promo)} · использован {promo.uses} {promo.max_uses === null ? 'раз, без ограничения' : `из ${String(promo.max_uses)}`} · создан {when(promo.created_at)}
          </p>
        </div>
      </header>
      <Editor
        label={`Промокод ${promo.code}`}
        fields={LIMIT_FIELDS}
        initial={{ max_uses: promo.max_uses, new_users_only: promo.new_users_only, starts_on: promo.starts_on, ends_on: promo.ends_on, note: promo.note, active: promo.active }}
        schema={PromoCodeUpdateSchema}
        submitLabel="Сохранить"
        onSubmit={onSubmit}
        done={done}
        aside={() => <Redemptions promo={promo} />}
      />
    </>
  );
}

/** Who took the code, when, and what it gave (the latest 100). */
export function Redemptions({ promo }: { promo: AdminPromoCodeDetail }) {
  return (
    <section className="card admin-preview" aria-label="Активации">
      <h3>Активации</h3>
      {promo.redemptions.length === 0 ? (
        <p className="admin-muted">Промокод ещё никто не активировал.</p>
      ) : (
        <ul className="admin-redemptions">
          {promo.redemptions.map((r) => (
            <li key={r.id}>
              <a href={`/admin/users/${String(r.user.id)}`}>{r.user.email}</a>
              <span className="admin-muted">{when(r.created_at)}</span>
              <span>
                {r.payment_id === null
                  ? promoGrant({ kind: 'tokens', words: r.words, media: r.media, discount_percent: null, tariff: null })
                  : `−${r.discount.toLocaleString('ru-RU')} ₽ · платёж №${String(r.payment_id)} ${r.payment_status === 'paid' || r.payment_status === 'refunded' ? 'оплачен' : r.payment_status === 'failed' ? 'не прошёл' : 'ждёт оплаты'}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
