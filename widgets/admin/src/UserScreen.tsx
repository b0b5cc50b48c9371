import { useState, type ReactNode } from 'react';
import { BalanceAdjustmentSchema, type AdminBalanceAdjustment, type AdminUserDetail } from '@app/contracts/admin';
import { EmailText, Alert, Button, LoadError, Skeleton, failureMessage, formatAmount, formatMedia, formatWords, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import type { AdminApi } from './api.ts';
import { Editor, type FieldSpec } from './Editor.tsx';
import { ActionScope, useActionMessage } from './last-action.tsx';
import { newRequestId } from './request-id.ts';
import { ScrollArea } from './ScrollArea.tsx';
import { ExportUserButton } from './privacy/ExportUserButton.tsx';
import { LEDGER_REASONS, ROLE_LABELS, statusLabel, walletAmount, when } from './texts.ts';

export interface UserScreenProps {
  api: AdminApi;
  id: number;
  navigate: (href: string) => void;
}

/** One user (/admin/users/{id}): balances with adjustments, role and blocking, and their activity. */
export function UserScreen({ api, id, navigate }: UserScreenProps) {
  const user = useRouteQuery(api.user, { params: { id } });
  const back = (
    <a className="admin-back" href="/admin/users" onClick={routedClick(navigate, '/admin/users')}>
      ← Все пользователи
    </a>
  );
  if (user.isPending)
    return (
      <div className="admin-screen">
        {back}
        <Skeleton lines={6} />
      </div>
    );
  if (user.isError)
    return (
      <div className="admin-screen">
        {back}
        <LoadError message={failureMessage(user.error)} onRetry={() => void user.refetch()} />
      </div>
    );
  return (
    <ActionScope>
      <UserView api={api} user={user.data} back={back} />
    </ActionScope>
  );
}

function UserView({ api, user, back }: { api: AdminApi; user: AdminUserDetail; back: ReactNode }) {
  const client = useKitQueryClient();
  const { message: failure, begin, show: showFailure } = useActionMessage<string>();
  const [busy, setBusy] = useState<'role' | 'block' | null>(null);
  const [confirm, setConfirm] = useState<'role' | 'block' | null>(null);
  const show = (next: AdminUserDetail) => client.setQueryData(routeKey(api.user.route, { params: { id: user.id } }), next);
  const update = async (kind: 'role' | 'block') => {
    setBusy(kind);
    const action = begin();
    try {
      show(await api.updateUser({ params: { id: user.id }, body: kind === 'role' ? { role: user.role === 'admin' ? 'user' : 'admin' } : { blocked: !user.blocked } }));
      void client.invalidateQueries({ queryKey: routeKey(api.users.route) });
    } catch (err) {
      showFailure(action, failureMessage(err));
    } finally {
      setBusy(null);
      setConfirm(null);
    }
  };
  const roleAction = user.role === 'admin' ? 'Снять права администратора' : 'Сделать администратором';
  const blockAction = user.blocked ? 'Разблокировать' : 'Заблокировать';
  return (
    <div className="admin-screen">
      {back}
      <header className="admin-screen__head">
        <div>
          <h2 className="admin-screen__title"><EmailText email={user.email} /></h2>
          <p className="admin-screen__meta">
            ID {user.id} · зарегистрирован {when(user.created_at)} · {user.email_confirmed ? 'почта подтверждена' : 'почта не подтверждена'} · {user.telegram_linked ? 'Telegram привязан' : 'Telegram не привязан'}
          </p>
          <p className="admin-badges">
            <span className={`admin-badge admin-badge--${user.role}`}>{ROLE_LABELS[user.role]}</span>
            {user.blocked && <span className="admin-badge admin-badge--danger">Заблокирован</span>}
          </p>
        </div>
        <div className="admin-screen__actions">
          {confirm ? (
            <div className="admin-confirm" role="group" aria-label="Подтверждение">
              <span>{confirm === 'role' ? `${roleAction}?` : `${blockAction} ${user.email}?`}</span>
              <Button variant={confirm === 'block' && !user.blocked ? 'danger' : 'primary'} busy={busy !== null} onClick={() => void update(confirm)}>
                Да
              </Button>
              <Button variant="ghost" onClick={() => setConfirm(null)}>
                Нет
              </Button>
            </div>
          ) : (
            <>
              <Button variant="secondary" onClick={() => setConfirm('role')}>
                {roleAction}
              </Button>
              <Button variant={user.blocked ? 'secondary' : 'danger'} onClick={() => setConfirm('block')}>
                {blockAction}
              </Button>
              <ExportUserButton api={api} userId={user.id} />
            </>
          )}
        </div>
      </header>
      {failure && <Alert>{failure}</Alert>}
      <div className="admin-grid">
        <section className="card admin-balances" aria-label="Балансы">
          <h3>Балансы</h3>
          <dl>
            <div>
              <dt>Слова</dt>
              <dd>{formatWords(user.balances.words)}</dd>
            </div>
            <div>
              <dt>Медиа токены</dt>
              <dd>{formatMedia(user.balances.media)}</dd>
            </div>
          </dl>
          <BalanceForm api={api} userId={user.id} onDone={show} />
        </section>
        <Section title="Подписки" empty="Подписок нет" rows={user.subscriptions} head={['№', 'Тариф', 'Статус', 'Сумма', 'Создана']}>
          {(s) => [s.id, s.tariff, statusLabel(s.status), formatAmount(s.amount, 'RUB'), when(s.created_at)]}
        </Section>
        <Section wide title="Движение токенов" empty="Операций пока нет" rows={user.ledger} head={['Когда', 'Кошелёк', 'Сумма', 'Причина']}>
          {(l) => [when(l.created_at), l.kind === 'media' ? 'Медиа' : 'Слова', <span className={l.amount < 0 ? 'is-negative' : 'is-positive'}>{(l.amount > 0 ? '+' : '') + walletAmount(l.kind, l.amount)}</span>, [LEDGER_REASONS[l.reason] ?? l.reason, l.note].filter(Boolean).join(': ')]}
        </Section>
        <Section title="Платежи" empty="Платежей нет" rows={user.payments} head={['№', 'Вид', 'Статус', 'Сумма', 'Создан']}>
          {(p) => [p.id, p.kind === 'package' ? 'Пакет' : 'Подписка', statusLabel(p.status), formatAmount(p.amount, p.currency), when(p.created_at)]}
        </Section>
        <Section title="Генерации" empty="Генераций нет" rows={user.generations} head={['№', 'Продукт', 'Статус', 'Когда']}>
          {(g) => [g.id, g.product, statusLabel(g.status), when(g.created_at)]}
        </Section>
        <Section title="Чаты" empty="Чатов нет" rows={user.chats} head={['№', 'Название', 'Сообщений', 'Обновлён']}>
          {(c) => [c.id, c.title, c.messages, when(c.updated_at)]}
        </Section>
      </div>
    </div>
  );
}

function Section<T extends { id: number }>({ title, rows, head, empty, children, wide = false }: { title: string; rows: readonly T[]; head: readonly string[]; empty: string; children: (row: T) => ReactNode[]; wide?: boolean }) {
  return (
    <section className={`card admin-section${wide ? ' admin-section--wide' : ''}`} aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <p className="admin-muted">{empty}</p>
      ) : (
        <ScrollArea label={title}>
          <table className="admin-table admin-table--compact">
            <thead>
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {children(row).map((cell, i) => (
                    <td key={head[i] ?? i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </section>
  );
}

const BALANCE_FIELDS: readonly FieldSpec[] = [
  { name: 'wallet', label: 'Кошелёк', kind: 'select', required: true, options: [{ value: 'words', label: 'Слова' }, { value: 'media', label: 'Медиа токены' }] },
  { name: 'amount', label: 'Сумма (минус — списать)', kind: 'number', required: true, placeholder: 'например, 1000 или -2,5' },
  { name: 'reason', label: 'Причина', kind: 'text', required: true, maxLength: 500, placeholder: 'Компенсация за сбой генерации' },
];

/** Adds to or takes from a wallet; the reason is required; a repeated submit applies once (the form's request id, new after each success). */
function BalanceForm({ api, userId, onDone }: { api: AdminApi; userId: number; onDone: (user: AdminUserDetail) => void }) {
  const [requestId, setRequestId] = useState(newRequestId);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (body: Record<string, unknown>) => {
    const adjustment = body as AdminBalanceAdjustment;
    setDone(null);
    onDone(await api.adjustBalance({ params: { id: userId }, body: adjustment }));
    setDone(`${adjustment.amount > 0 ? 'Начислено' : 'Списано'}: ${walletAmount(adjustment.wallet, Math.abs(adjustment.amount))}`);
    // A new form: the next adjustment is a new request.
    setRequestId(newRequestId());
  };
  return (
    <div className="admin-balance-form">
      <h4>Корректировка баланса</h4>
      <Editor label="Корректировка баланса" schema={BalanceAdjustmentSchema} fields={BALANCE_FIELDS} initial={{ wallet: 'words' }} extra={{ request_id: requestId }} submitLabel="Применить" onSubmit={submit} done={done} clearOnSuccess />
    </div>
  );
}
