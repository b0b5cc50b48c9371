import { useEffect, useState, type ReactNode } from 'react';
import type { AdminAiProduct, AdminDeleteResult } from '@app/contracts/admin';
import { ADMIN_AI_TEXTS } from '@app/contracts/admin';
import type { ClientRoute } from '@app/contracts/browser';
import { Alert, ApiError, Button, LoadError, Skeleton, failureMessage, routeKey, useKitQueryClient } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import { ActionScope, useActionMessage, useLastAction } from '../last-action.tsx';
import { when } from '../texts.ts';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

let pending: { href: string; message: string } | null = null;

/** Goes to `href` with a message its screen shows once (a record created, one deleted). */
export function goWithMessage(navigate: Navigate, href: string, message: string): void {
  pending = { href, message };
  navigate(href, { replace: true });
}

/** The message left for this address by `goWithMessage`, shown once. */
export function useFlash(): string | null {
  const [message] = useState(() => (pending && pending.href === window.location.pathname + window.location.search ? pending.message : null));
  useEffect(() => {
    pending = null;
  }, []);
  return message;
}

/** Tells the screen a value of the form as it changes (the editor keeps its draft; the screen filters choices by it). */
export function Watch<V>({ value, onChange }: { value: V; onChange: (value: V) => void }) {
  useEffect(() => onChange(value), [value, onChange]);
  return null;
}

/** JSON with keys in order: two values that hold the same compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

/** The fields of `after` that differ from `before` (what a PATCH sends: the server checks only what a change concerns). */
export function changedFields<T extends object>(before: object, after: T): Partial<T> {
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => canonical(value) !== canonical((before as Record<string, unknown>)[key]))) as Partial<T>;
}

/**
 * Takes the server's messages about a field the editor has no input for (a list edited beside
 * the form) and gives the rest back to the editor, or a message saying where to look.
 */
export function liftFieldError(err: unknown, field: string, show: (messages: string[]) => void): unknown {
  if (!(err instanceof ApiError)) return err;
  const { [field]: mine, ...rest } = err.fields;
  if (!mine) return err;
  show(mine);
  return new ApiError(err.status, err.code, Object.keys(rest).length ? rest : 'Исправьте ошибки, отмеченные ниже');
}

const CATALOG_PATHS = /^\/api\/admin\/(ai-|providers)/;

/**
 * What a screen does once the server took a change: the record's query holds the new record,
 * every other catalogue query is stale (lists, counts of products and models, choices of selects);
 * a new record's screen opens with a message; a deleted record's list shows one.
 */
export function useCatalogChanges(recordRoute: ClientRoute, path: string, navigate: Navigate) {
  const client = useKitQueryClient();
  const refresh = () => client.invalidateQueries({ predicate: (q) => typeof q.queryKey[1] === 'string' && CATALOG_PATHS.test(q.queryKey[1]) && q.queryKey[1] !== recordRoute.path });
  return {
    saved: (record: { id: number }) => {
      client.setQueryData([...routeKey(recordRoute), { params: { id: record.id } }], record);
      void refresh();
    },
    created: (record: { id: number }, message: string) => {
      client.setQueryData([...routeKey(recordRoute), { params: { id: record.id } }], record);
      void refresh();
      goWithMessage(navigate, `${path}/${String(record.id)}`, message);
    },
    deleted: (message: string) => {
      void refresh();
      goWithMessage(navigate, path, message);
    },
    /** Switched off instead of deleted: the record is read again. */
    reread: () => client.invalidateQueries({ queryKey: routeKey(recordRoute) }),
  };
}

export const NOTHING_CHANGED = 'Изменений нет: сохранять нечего';

export interface SaveOptions<T extends { id: number }, B extends object> {
  record: T | null;
  create: (body: B) => Promise<T>;
  update: (id: number, change: Partial<B>) => Promise<T>;
  /** The message the new record's screen opens with. */
  createdMessage: (record: T) => string;
  changes: ReturnType<typeof useCatalogChanges>;
}

/** An editor's submit: a new record is created and its screen opened; an existing one gets only what changed. */
export function useSave<T extends { id: number }, B extends object>({ record, create, update, createdMessage, changes }: SaveOptions<T, B>) {
  const [done, setDone] = useState<string | null>(null);
  const save = async (body: B) => {
    setDone(null);
    if (!record) {
      const made = await create(body);
      changes.created(made, createdMessage(made));
      return;
    }
    const change = changedFields(record, body);
    if (!Object.keys(change).length) {
      setDone(NOTHING_CHANGED);
      return;
    }
    changes.saved(await update(record.id, change));
    setDone('Сохранено');
  };
  return { done, save };
}

export interface RecordFrameProps<T> {
  back: { href: string; label: string };
  navigate: Navigate;
  /** The record's query (null on a create screen). */
  record: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown } | null;
  /** Other data the screen needs before its form (choices of selects). */
  waitFor?: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }[];
  children: (record: T | null) => ReactNode;
}

const recordKey = (data: unknown) => {
  const id = (data as { id?: unknown }).id;
  return typeof id === 'number' ? String(id) : 'record';
};

/** A record's screen: the link back to its list, a skeleton while loading, the failure with a retry, then the screen. */
export function RecordFrame<T>({ back, navigate, record, waitFor = [], children }: RecordFrameProps<T>) {
  const queries = [...(record ? [record] : []), ...waitFor];
  const failed = queries.find((q) => q.isError);
  return (
    <div className="admin-screen">
      <a className="admin-back" href={back.href} onClick={routedClick(navigate, back.href)}>
        ← {back.label}
      </a>
      {failed ? (
        <LoadError message={failureMessage(failed.error)} onRetry={() => void failed.refetch()} />
      ) : queries.some((q) => q.isPending) || (record && !record.data) ? (
        <Skeleton lines={8} />
      ) : (
        // One scope a record: a record just created opens with its message shown.
        <ActionScope key={record?.data ? recordKey(record.data) : 'new'}>{children(record?.data ?? null)}</ActionScope>
      )}
    </div>
  );
}

export interface RecordHeadProps {
  title: string;
  meta: ReactNode;
  active?: boolean;
  badges?: ReactNode;
  actions?: ReactNode;
}

/** The head of a record's screen: its name, what it is, whether it is on, its actions, and what was just done (it was created) until the next action. */
export function RecordHead({ title, meta, active, badges, actions }: RecordHeadProps) {
  const flash = useFlash();
  const { last } = useLastAction();
  return (
    <>
      <header className="admin-screen__head">
        <div>
          <h2 className="admin-screen__title">{title}</h2>
          <p className="admin-screen__meta">{meta}</p>
          <p className="admin-badges">
            {active !== undefined && <ActiveBadge active={active} />}
            {badges}
          </p>
        </div>
        {actions && <div className="admin-screen__actions">{actions}</div>}
      </header>
      {flash && last === 0 && <Alert tone="success">{flash}</Alert>}
    </>
  );
}

/** «Включено» / «Выключено»; a record switched on that users still do not see (`hidden`: why) is «Скрыто», the reason in its title. */
export const ActiveBadge = ({ active, hidden = null }: { active: boolean; hidden?: string | null }) =>
  active && hidden ? (
    <span className="admin-badge admin-badge--warning" title={hidden}>
      Скрыто<span className="visually-hidden">: {hidden}</span>
    </span>
  ) : (
    <span className={`admin-badge ${active ? 'admin-badge--on' : 'admin-badge--off'}`}>{active ? 'Включено' : 'Выключено'}</span>
  );

/** Why users do not see a product that is switched on, in staff's words; null when they see it. */
export function hiddenBecause(p: Pick<AdminAiProduct, 'hidden_because' | 'category' | 'model' | 'connection'>): string | null {
  switch (p.hidden_because) {
    case 'category':
      return `пользователи его не видят: категория «${p.category}» выключена`;
    case 'model':
      return `пользователи его не видят: модель «${p.model}» выключена`;
    case 'connection':
      return `пользователи его не видят: подключение «${p.connection}» модели «${p.model}» выключено`;
    default:
      return null;
  }
}

/** «ID 3 · создано … · изменено …» */
export const stampsLine = (r: { id: number; created_at: string; updated_at: string }) => `ID ${String(r.id)} · создано ${when(r.created_at)} · изменено ${when(r.updated_at)}`;

export interface DeleteActionProps {
  /** What is deleted, in the question: «продукт «Открытка»». */
  what: string;
  /** What happens instead when the record is in use (shown in the question). */
  note?: string;
  onDelete: () => Promise<AdminDeleteResult>;
  /** Deleted: the screen goes back to the list. */
  onDeleted: () => void;
  /** Switched off instead: the screen shows it off. */
  onDeactivated?: () => void;
}

/** «Удалить» behind a confirmation; a record in use is refused with the server's reason, or switched off (the history keeps it). */
export function DeleteAction({ what, note, onDelete, onDeleted, onDeactivated }: DeleteActionProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const { message, begin, show } = useActionMessage<{ tone: 'error' | 'info'; text: string }>();
  const run = async () => {
    setBusy(true);
    const action = begin();
    try {
      const result = await onDelete();
      if (result.outcome === 'deleted') {
        onDeleted();
        return;
      }
      show(action, { tone: 'info', text: ADMIN_AI_TEXTS.deactivated });
      onDeactivated?.();
    } catch (err) {
      show(action, { tone: 'error', text: failureMessage(err) });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <div className="ai-delete">
      {asking ? (
        <div className="admin-confirm" role="group" aria-label="Подтверждение">
          <span>
            Удалить {what}?{note && <span className="ai-delete__note"> {note}</span>}
          </span>
          <Button variant="danger" busy={busy} onClick={() => void run()}>
            Да, удалить
          </Button>
          <Button variant="ghost" onClick={() => setAsking(false)}>
            Нет
          </Button>
        </div>
      ) : (
        <Button variant="danger" onClick={() => setAsking(true)}>
          Удалить
        </Button>
      )}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </div>
  );
}
