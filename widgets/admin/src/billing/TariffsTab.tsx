import { useState } from 'react';
import { SUBSCRIPTION_TYPES, type SubscribeCheck, type Tariff } from '@app/contracts/browser';
import { TariffInputSchema, type AdminTariff, type TariffInput } from '@app/contracts/admin';
import { Alert, Button, formatAmount, formatMedia, formatWords, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import { PlanCardFrame } from '@app/widget-tariffs/src/PlanCard.tsx';
import { hasTrial, planButton } from '@app/widget-tariffs/src/plan.ts';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec, type Values } from '../Editor.tsx';
import { when } from '../texts.ts';
import { BillingList } from './BillingList.tsx';
import { TariffSections } from './TariffSections.tsx';
import { useListAddress } from './list.ts';
import { days, rub, TARIFF_TYPES, tariffTypeShort } from './texts.ts';
import { At, Loading, RoutedLink } from './ui.tsx';

const PATH = '/admin/tariff';
const FALLBACK_SORT = 'sort';

const trial = (t: Pick<Tariff, 'subscriptions_type' | 'first_amount' | 'trial_days'>) => (hasTrial(t) ? `${rub(t.first_amount)} за ${days(t.trial_days)}` : '—');
/** The trial's fields mean something only for a monthly plan with a trial. */
const withTrial = (v: Values) => Number(v.subscriptions_type) === SUBSCRIPTION_TYPES.monthlyTrial;

export const TARIFF_COLUMNS: readonly Column<AdminTariff>[] = [
  { key: 'name', label: 'Название', sortable: true, render: (t) => t.name },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (t) => t.id },
  { key: 'type', label: 'Тип', render: (t) => tariffTypeShort(t.subscriptions_type) },
  { key: 'amount', label: 'Цена', sortable: true, numeric: true, render: (t) => <span className="admin-nowrap">{`${formatAmount(t.amount, t.currency_provider)}${t.subscriptions_type === SUBSCRIPTION_TYPES.package ? '' : '/мес'}`}</span> },
  { key: 'trial', label: 'Пробный', render: (t) => <span className="admin-nowrap">{trial(t)}</span> },
  { key: 'words', label: 'Слова', numeric: true, render: (t) => formatWords(t.words) },
  { key: 'media', label: 'Медиа', numeric: true, render: (t) => formatMedia(t.media) },
  // On sale or not, and the «Популярный» mark, in one column: the table fits a laptop's width.
  {
    key: 'active',
    label: 'В продаже',
    render: (t) => (
      <span className="admin-badges">
        {t.active ? <span className="admin-badge admin-badge--success">Да</span> : <span className="admin-badge">Снят</span>}
        {t.popular && <span className="admin-badge admin-badge--admin">Популярный</span>}
      </span>
    ),
  },
  { key: 'sort', label: 'Порядок', sortable: true, numeric: true, render: (t) => t.sort },
  { key: 'created_at', label: 'Создан', sortable: true, render: (t) => <At iso={t.created_at} /> },
];

export interface TariffsTabProps {
  api: AdminApi;
  id: number | null;
  search: string;
  navigate: (href: string, options?: { replace?: boolean }) => void;
}

/** «Тарифы»: the plans and packages, and one plan's editor with its card as the plans page shows it. */
export function TariffsTab({ api, id, search, navigate }: TariffsTabProps) {
  const params = new URLSearchParams(search);
  if (id !== null) return <TariffScreen key={id} api={api} id={id} created={params.has('created')} navigate={navigate} />;
  if (params.has('new')) return <TariffScreen api={api} id={null} created={false} navigate={navigate} />;
  return <TariffsList api={api} search={search} navigate={navigate} />;
}

function TariffsList({ api, search, navigate }: Omit<TariffsTabProps, 'id'>) {
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns: TARIFF_COLUMNS, filters: [], navigate });
  const { query } = address;
  const list = useRouteQuery(api.tariffs, { query: { q: query.q, sort: address.sort as 'sort', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <>
    <TariffSections current="tariffs" navigate={navigate} />
    <BillingList
      title="Тарифы"
      columns={TARIFF_COLUMNS}
      list={list}
      address={address}
      search={search}
      navigate={navigate}
      searchLabel="Поиск по названию"
      empty="Тарифов пока нет"
      screens={{ path: PATH, newLabel: 'Новый тариф' }}
    />
    </>
  );
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
  { name: 'subscriptions_type', label: 'Тип', kind: 'select', numeric: true, required: true, options: TARIFF_TYPES, hint: 'Пакет докупают к действующей подписке; на странице тарифов он в разделе «Пакеты токенов»' },
  { name: 'amount', label: 'Цена, ₽ (в месяц или за пакет)', kind: 'number', required: true },
  { name: 'first_amount', label: 'Цена пробного периода, ₽', kind: 'number', nullable: true, hint: 'Пусто — без пробного периода', shownWhen: withTrial },
  { name: 'trial_days', label: 'Дней пробного периода', kind: 'number', required: true, hint: '0 — без пробного периода', shownWhen: withTrial },
  { name: 'words', label: 'Слов за период (у пакета — в пакете)', kind: 'number', required: true },
  { name: 'media', label: 'Медиа токенов за период (у пакета — в пакете)', kind: 'number', required: true, hint: 'Можно с одним знаком после запятой' },
  {
    name: 'description',
    label: 'Строки описания',
    kind: 'lines',
    hint: 'Одна строка — один пункт карточки, до 20 строк. [[words]] — значок слов, [[media]] — значок медиа токенов',
    placeholder: '[[words]] 100 000 слов в месяц',
  },
  { name: 'currency_provider', label: 'Валюта', kind: 'select', required: true, options: [{ value: 'RUB', label: 'Рубли (RUB)' }], hint: 'Оплата принимается только в рублях' },
  { name: 'sort', label: 'Порядок на странице', kind: 'number', required: true, hint: 'Меньше — раньше' },
  { name: 'popular', label: 'Популярный: карточка выделена на странице тарифов', kind: 'checkbox' },
  { name: 'active', label: 'В продаже', kind: 'checkbox', hint: 'Снятый с продажи тариф не виден на странице тарифов; действующие подписки на него продолжаются' },
];

const NEW_TARIFF: Values = { subscriptions_type: SUBSCRIPTION_TYPES.monthly, currency_provider: 'RUB', trial_days: 3, words: 0, media: 0, sort: 0, active: true, popular: false, description: [] };

const num = (v: Values[string] | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: Values[string] | undefined): string => (typeof v === 'string' ? v : '');

/** The editor's values as a plan the card can draw while they are typed (the preview; what is sent is the contract's parse of them). */
export function tariffBody(v: Values) {
  const type = Number(v.subscriptions_type);
  return {
    name: text(v.name),
    amount: num(v.amount) ?? 0,
    first_amount: num(v.first_amount),
    description: Array.isArray(v.description) ? v.description : [],
    subscriptions_type: ([1, 2, 3] as const).find((t) => t === type) ?? 2,
    popular: v.popular === true,
    currency_provider: 'RUB' as const,
    words: num(v.words) ?? 0,
    media: num(v.media) ?? 0,
    trial_days: num(v.trial_days) ?? 0,
    sort: num(v.sort) ?? 0,
    active: v.active === true,
  };
}

function TariffScreen({ api, id, created, navigate }: { api: AdminApi; id: number | null; created: boolean; navigate: TariffsTabProps['navigate'] }) {
  const tariff = useRouteQuery(api.tariff, { params: { id: id ?? 0 } }, { enabled: id !== null });
  return (
    <div className="admin-screen">
      <RoutedLink className="admin-back" href={PATH} navigate={navigate}>
        ← Все тарифы
      </RoutedLink>
      {id === null ? (
        <>
          <h2 className="admin-screen__title">Новый тариф</h2>
          <TariffForm api={api} tariff={null} created={false} navigate={navigate} />
        </>
      ) : (
        <Loading query={tariff}>
          {() =>
            tariff.data && (
              <>
                <header>
                  <h2 className="admin-screen__title">Тариф «{tariff.data.name}»</h2>
                  <p className="admin-screen__meta">
                    ID {tariff.data.id} · создан {when(tariff.data.created_at)} · изменён {when(tariff.data.updated_at)}
                  </p>
                </header>
                <TariffForm api={api} tariff={tariff.data} created={created} navigate={navigate} />
              </>
            )
          }
        </Loading>
      )}
    </div>
  );
}

function TariffForm({ api, tariff, created, navigate }: { api: AdminApi; tariff: AdminTariff | null; created: boolean; navigate: TariffsTabProps['navigate'] }) {
  const client = useKitQueryClient();
  const [done, setDone] = useState<string | null>(created ? 'Тариф создан. Он уже на странице тарифов, если в продаже.' : null);
  const onSubmit = async (checked: Record<string, unknown>) => {
    setDone(null);
    const body = checked as TariffInput;
    const saved = tariff ? await api.updateTariff({ params: { id: tariff.id }, body }) : await api.createTariff({ body });
    client.setQueryData(routeKey(api.tariff.route, { params: { id: saved.id } }), saved);
    void client.invalidateQueries({ queryKey: routeKey(api.tariffs.route) });
    if (tariff) setDone('Сохранено. Страница тарифов уже показывает изменения.');
    else navigate(`${PATH}/${String(saved.id)}?created=1`, { replace: true });
  };
  return (
    <Editor
      label={tariff ? `Тариф «${tariff.name}»` : 'Новый тариф'}
      fields={FIELDS}
      initial={tariff ?? NEW_TARIFF}
      schema={TariffInputSchema}
      submitLabel={tariff ? 'Сохранить' : 'Создать тариф'}
      onSubmit={onSubmit}
      done={done}
      onEdit={(name, draft) => (name === 'subscriptions_type' && Number(draft.subscriptions_type) !== SUBSCRIPTION_TYPES.monthlyTrial ? { first_amount: '' } : null)}
      aside={(values) => <TariffPreview tariff={{ ...tariffBody(values), id: tariff?.id ?? 0, name: text(values.name) || 'Без названия' }} active={values.active === true} />}
    />
  );
}

/** A visitor who has never subscribed and holds some plan (so a package is on sale to them): the trial price shows. */
const PREVIEW_CHECK: SubscribeCheck = { subscriptions: 0, first: true, card: null, cancelled: false, active_until: null, trial: false, past_due: false, next_charge_at: null, next_charge_amount: null };

/** The plan's card exactly as the plans page draws it, from the editor's values as they are typed. */
export function TariffPreview({ tariff, active }: { tariff: Tariff; active: boolean }) {
  const button = planButton(tariff, PREVIEW_CHECK, []);
  const isPackage = tariff.subscriptions_type === SUBSCRIPTION_TYPES.package;
  return (
    <section className="card admin-preview" aria-label="Предпросмотр карточки">
      <h3>Предпросмотр</h3>
      <p className="admin-muted">
        Так карточку видит {isPackage ? 'подписчик в разделе «Пакеты токенов»' : 'новый пользователь'} на странице тарифов.
      </p>
      {!active && <Alert tone="warning">Тариф снят с продажи: на странице тарифов его не видно.</Alert>}
      <ul className="plans admin-preview__plans">
        <PlanCardFrame tariff={tariff} check={PREVIEW_CHECK}>
          <div inert>
            <Button block>{button.label}</Button>
          </div>
        </PlanCardFrame>
      </ul>
    </section>
  );
}
