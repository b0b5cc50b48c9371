import { useState } from 'react';
import { DashboardCardInputSchema, type AdminDashboardCard, type DashboardCardInput } from '@app/contracts/admin';
import { Alert, Button, failureMessage, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import { NewsCard } from '@app/widget-dashboard/src/NewsCard.tsx';
import { iconImage } from '@app/widget-dashboard/src/news-card-links.ts';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec, type Values } from '../Editor.tsx';
import { when } from '../texts.ts';
import { BillingList } from './BillingList.tsx';
import { useListAddress } from './list.ts';
import { At, Loading, RoutedLink } from './ui.tsx';

const PATH = '/admin/dashboard';
const FALLBACK_SORT = 'sort';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

function Icon({ icon }: { icon: string }) {
  const image = iconImage(icon);
  return (
    <span className="news-card__icon admin-card-icon" aria-hidden="true">
      {image ? <img src={image} alt="" width={28} height={28} loading="lazy" /> : icon}
    </span>
  );
}

export const CARD_COLUMNS: readonly Column<AdminDashboardCard>[] = [
  { key: 'name', label: 'Название', sortable: true, render: (c) => c.name },
  { key: 'icon', label: 'Значок', render: (c) => <Icon icon={c.icon} /> },
  { key: 'description', label: 'Описание', render: (c) => <span className="admin-clamp">{c.description}</span> },
  { key: 'link', label: 'Ссылка', render: (c) => <code className="admin-code">{c.link}</code> },
  { key: 'active', label: 'Показывается', render: (c) => (c.active ? <span className="admin-badge admin-badge--success">Да</span> : <span className="admin-badge">Скрыта</span>) },
  { key: 'sort', label: 'Порядок', sortable: true, numeric: true, render: (c) => c.sort },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (c) => c.id },
  { key: 'created_at', label: 'Создана', sortable: true, render: (c) => <At iso={c.created_at} /> },
];

/** «Стартовая панель»: the dashboard's news cards, and one card's editor with its preview; deleting asks first. */
export function CardsTab({ api, id, search, navigate }: { api: AdminApi; id: number | null; search: string; navigate: Navigate }) {
  const params = new URLSearchParams(search);
  if (id !== null) return <CardScreen key={id} api={api} id={id} created={params.has('created')} navigate={navigate} />;
  if (params.has('new')) return <CardScreen api={api} id={null} created={false} navigate={navigate} />;
  return <CardsList api={api} search={search} deleted={params.get('deleted')} navigate={navigate} />;
}

function CardsList({ api, search, deleted, navigate }: { api: AdminApi; search: string; deleted: string | null; navigate: Navigate }) {
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns: CARD_COLUMNS, filters: [], navigate });
  const { query } = address;
  const list = useRouteQuery(api.dashboardCards, { query: { q: query.q, sort: address.sort as 'sort', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <>
      {deleted && <Alert tone="success">Карточка «{deleted}» удалена: на стартовой панели её больше нет.</Alert>}
      <BillingList
        title="Стартовая панель"
        columns={CARD_COLUMNS}
        list={list}
        address={address}
        search={search}
        navigate={navigate}
        searchLabel="Поиск по названию или ссылке"
        empty="Карточек пока нет"
        screens={{ path: PATH, newLabel: 'Новая карточка' }}
      />
    </>
  );
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
  { name: 'description', label: 'Описание', kind: 'textarea', required: true, maxLength: 500 },
  { name: 'icon', label: 'Значок', kind: 'text', required: true, maxLength: 500, placeholder: '/assets/icons/chat.svg', hint: 'Картинка: путь на сайте (/assets/icons/chat.svg, image.svg, video.svg, history.svg) или адрес https://…' },
  { name: 'link', label: 'Ссылка', kind: 'text', required: true, maxLength: 500, placeholder: '/chat', hint: 'Путь на сайте (/chat) или адрес https://… (откроется в новой вкладке)' },
  { name: 'sort', label: 'Порядок', kind: 'number', required: true, hint: 'Меньше — раньше' },
  { name: 'active', label: 'Показывать на стартовой панели', kind: 'checkbox' },
];

const NEW_CARD: Values = { sort: 0, active: true };

const text = (v: Values[string] | undefined): string => (typeof v === 'string' ? v : '');

/** The editor's values as a card the preview can draw while they are typed (what is sent is the contract's parse of them). */
export function cardBody(v: Values) {
  return { name: text(v.name), description: text(v.description), icon: text(v.icon), link: text(v.link), sort: typeof v.sort === 'number' ? v.sort : 0, active: v.active === true };
}

function CardScreen({ api, id, created, navigate }: { api: AdminApi; id: number | null; created: boolean; navigate: Navigate }) {
  const card = useRouteQuery(api.dashboardCard, { params: { id: id ?? 0 } }, { enabled: id !== null });
  return (
    <div className="admin-screen">
      <RoutedLink className="admin-back" href={PATH} navigate={navigate}>
        ← Все карточки
      </RoutedLink>
      {id === null ? (
        <>
          <h2 className="admin-screen__title">Новая карточка</h2>
          <CardForm api={api} card={null} created={false} navigate={navigate} />
        </>
      ) : (
        <Loading query={card}>{() => card.data && <CardForm api={api} card={card.data} created={created} navigate={navigate} />}</Loading>
      )}
    </div>
  );
}

function CardForm({ api, card, created, navigate }: { api: AdminApi; card: AdminDashboardCard | null; created: boolean; navigate: Navigate }) {
  const client = useKitQueryClient();
  const [done, setDone] = useState<string | null>(created ? 'Карточка создана.' : null);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = async (checked: Record<string, unknown>) => {
    setDone(null);
    const body = checked as DashboardCardInput;
    const saved = card ? await api.updateDashboardCard({ params: { id: card.id }, body }) : await api.createDashboardCard({ body });
    client.setQueryData(routeKey(api.dashboardCard.route, { params: { id: saved.id } }), saved);
    void client.invalidateQueries({ queryKey: routeKey(api.dashboardCards.route) });
    if (card) setDone('Сохранено. Стартовая панель уже показывает изменения.');
    else navigate(`${PATH}/${String(saved.id)}?created=1`, { replace: true });
  };
  const remove = async () => {
    if (!card) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.deleteDashboardCard({ params: { id: card.id } });
      client.removeQueries({ queryKey: routeKey(api.dashboardCard.route, { params: { id: card.id } }) });
      void client.invalidateQueries({ queryKey: routeKey(api.dashboardCards.route) });
      navigate(`${PATH}?deleted=${encodeURIComponent(card.name)}`, { replace: true });
    } catch (err) {
      setFailure(failureMessage(err));
      setBusy(false);
      setConfirm(false);
    }
  };
  return (
    <>
      {card && (
        <header className="admin-screen__head">
          <div>
            <h2 className="admin-screen__title">Карточка «{card.name}»</h2>
            <p className="admin-screen__meta">
              ID {card.id} · создана {when(card.created_at)} · изменена {when(card.updated_at)}
            </p>
          </div>
          <div className="admin-screen__actions">
            {confirm ? (
              <div className="admin-confirm" role="group" aria-label="Подтверждение">
                <span>Удалить карточку «{card.name}»?</span>
                <Button variant="danger" busy={busy} onClick={() => void remove()}>
                  Да
                </Button>
                <Button variant="ghost" disabled={busy} onClick={() => setConfirm(false)}>
                  Нет
                </Button>
              </div>
            ) : (
              <Button variant="danger" onClick={() => setConfirm(true)}>
                Удалить карточку
              </Button>
            )}
          </div>
        </header>
      )}
      {failure && <Alert>{failure}</Alert>}
      <Editor
        label={card ? `Карточка «${card.name}»` : 'Новая карточка'}
        fields={FIELDS}
        initial={card ?? NEW_CARD}
        schema={DashboardCardInputSchema}
        submitLabel={card ? 'Сохранить' : 'Создать карточку'}
        onSubmit={onSubmit}
        done={done}
        aside={(values) => <CardPreview card={{ ...cardBody(values), id: card?.id ?? 0 }} />}
      />
    </>
  );
}

/** The card exactly as the user's dashboard draws it, from the editor's values as they are typed. */
export function CardPreview({ card }: { card: ReturnType<typeof cardBody> & { id: number } }) {
  return (
    <section className="card admin-preview" aria-label="Предпросмотр карточки">
      <h3>Предпросмотр</h3>
      <p className="admin-muted">Так карточку видят пользователи в блоке «Новости и возможности» стартовой панели.</p>
      {!card.active && <Alert tone="warning">Карточка скрыта: на стартовой панели её не видно.</Alert>}
      <ul className="news-grid admin-preview__cards" inert>
        <NewsCard card={{ ...card, name: card.name || 'Без названия', description: card.description || 'Описание карточки' }} />
      </ul>
    </section>
  );
}
