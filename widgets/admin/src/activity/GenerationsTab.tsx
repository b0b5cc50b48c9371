import { useCallback, useId, useMemo, useState } from 'react';
import { GENERATION_SORTS, GENERATION_STATUSES, type AdminGeneration } from '@app/contracts/admin';
import { failureReason } from '@app/contracts/generation';
import { Button, LazyDialog, preloadDialogKit, queryState, useRouteQuery } from '@app/kit';
import { AdminList, type Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { listHref, readListQuery, type ListQuery } from '../routes.ts';
import { statusLabel, walletAmount, when } from '../texts.ts';
import { fileUrl, oneOf, withParams } from './address.ts';
import { VARIANT_LABELS, duration } from './texts.ts';
import { Stamp, UserLink } from './cells.tsx';

const PATH = '/admin/history';

type Status = (typeof GENERATION_STATUSES)[number];
type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** Where a run's provider error is shown: why it failed, or why the attempt before failed while it is retried. */
const DETAIL_LABELS: Partial<Record<AdminGeneration['status'], string>> = { failed: 'Причина', queued: 'Повтор после ошибки', running: 'Повтор после ошибки' };

/**
 * A run's status as a badge; when it failed, what its user was told and what really happened (the
 * provider's words), also while a failed attempt is being retried; and the way to its outputs.
 */
export function RunStatus({ run, onPreview }: { run: AdminGeneration; onPreview: (run: AdminGeneration) => void }) {
  const detailLabel = run.error_detail ? DETAIL_LABELS[run.status] : undefined;
  return (
    <span className="admin-run__status">
      <span className={`admin-badge admin-badge--${run.status}`}>{statusLabel(run.status)}</span>
      {/* What its user read, less the sentence about the tokens: the cost column says nothing was charged. */}
      {run.error && <span className="admin-run__error">{failureReason(run.error)}</span>}
      {detailLabel && (
        <span className="admin-run__detail" title={run.error_detail ?? undefined}>
          <span className="admin-run__detail-label">{detailLabel}:</span> {run.error_detail}
        </span>
      )}
      {run.outputs.length > 0 && (
        <Button variant="secondary" className="admin-run__open" onClick={() => onPreview(run)} onMouseEnter={preloadDialogKit} onFocus={preloadDialogKit}>
          Смотреть{run.outputs.length > 1 ? ` (${String(run.outputs.length)})` : ''}
        </Button>
      )}
    </span>
  );
}

/** The columns of the history; `onPreview` opens a run's outputs. */
export function generationColumns(navigate: Navigate, onPreview: (run: AdminGeneration) => void): Column<AdminGeneration>[] {
  return [
    { key: 'id', label: '№', sortable: true, numeric: true, render: (g) => g.id },
    { key: 'created_at', label: 'Запущена', sortable: true, render: (g) => <Stamp iso={g.created_at} extra={g.finished_at && ` · ${duration(g.created_at, g.finished_at)}`} /> },
    { key: 'email', label: 'Пользователь', render: (g) => <UserLink user={g} navigate={navigate} /> },
    {
      key: 'product',
      label: 'Продукт, модель и запрос',
      render: (g) => (
        <span className="admin-run">
          <span className="admin-run__product">{g.product}</span>
          <span className="admin-run__model">
            {g.model} · {VARIANT_LABELS[g.variant]}
          </span>
          {g.prompt && (
            <span className="admin-run__prompt" title={g.prompt}>
              {g.prompt}
            </span>
          )}
        </span>
      ),
    },
    { key: 'status', label: 'Статус', render: (g) => <RunStatus run={g} onPreview={onPreview} /> },
    {
      key: 'cost',
      label: 'Стоимость',
      sortable: true,
      numeric: true,
      // A failed or cancelled run gave its held price back: nothing was charged.
      render: (g) =>
        g.status === 'failed' || g.status === 'cancelled' ? (
          <span className="admin-nowrap admin-muted" title={`Резерв ${walletAmount(g.wallet, g.cost)} возвращён`}>
            не списано
          </span>
        ) : (
          <span className="admin-nowrap">{walletAmount(g.wallet, g.cost)}</span>
        ),
    },
  ];
}

/** «История генераций» (/admin/history): every user's runs, searched, filtered by status and sorted on the server; outputs opened in a window. */
export function GenerationsTab({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const query = readListQuery(search, 'id');
  const sort = GENERATION_SORTS.find((s) => s === query.sort) ?? 'id';
  const status = oneOf(search, 'status', GENERATION_STATUSES);
  const filterId = useId();
  const [preview, setPreview] = useState<AdminGeneration | null>(null);
  const list = useRouteQuery(api.generations, { query: { q: query.q, sort, dir: query.dir, page: query.page, ...(status ? { status } : {}) } }, { placeholderData: (prev) => prev });
  const hrefOf = useCallback((next: ListQuery, nextStatus: Status | null) => withParams(listHref(PATH, next, 'id'), { status: nextStatus }), []);
  const onQuery = useCallback((next: ListQuery) => navigate(hrefOf(next, status), { replace: true }), [navigate, hrefOf, status]);
  const columns = useMemo(() => generationColumns(navigate, setPreview), [navigate]);
  return (
    <div className="admin-activity-list">
      <AdminList
        title="История генераций"
        columns={columns}
        state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
        query={{ ...query, sort }}
        onQuery={onQuery}
        onRetry={() => void list.refetch()}
        searchLabel="Поиск: email, продукт или модель"
        rowKey={(g) => g.id}
        navigate={navigate}
        empty={status ? `Генераций со статусом «${statusLabel(status)}» нет` : 'Генераций пока нет'}
        tools={
          <>
            <label className="visually-hidden" htmlFor={filterId}>
              Статус
            </label>
            <select id={filterId} className="field__input admin-list__filter" value={status ?? ''} onChange={(e) => navigate(hrefOf({ ...query, sort, page: 1 }, GENERATION_STATUSES.find((s) => s === e.target.value) ?? null), { replace: true })}>
              <option value="">Все статусы</option>
              {GENERATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </>
        }
      />
      {preview && <RunPreview run={preview} onClose={() => setPreview(null)} />}
    </div>
  );
}

/** A run's outputs full size, one at a time, with the prompt and a download link (the kit's dialog, fetched on demand). */
export function RunPreview({ run, onClose }: { run: AdminGeneration; onClose: () => void }) {
  const [index, setIndex] = useState(0);
  const describedBy = useId();
  const count = run.outputs.length;
  const output = run.outputs[Math.min(index, count - 1)] ?? 0;
  return (
    <LazyDialog
      title={`Генерация №${String(run.id)}${count > 1 ? ` · ${String(index + 1)} из ${String(count)}` : ''}`}
      className={`gen-viewer gen-viewer--${run.variant === 'video' ? 'video' : 'image'}`}
      describedBy={describedBy}
      onClose={onClose}
      footer={
        <>
          {count > 1 && (
            <span className="gen-viewer__steps">
              <Button variant="secondary" aria-label="Предыдущий" disabled={index === 0} onClick={() => setIndex(index - 1)}>
                ‹
              </Button>
              <Button variant="secondary" aria-label="Следующий" disabled={index >= count - 1} onClick={() => setIndex(index + 1)}>
                ›
              </Button>
            </span>
          )}
          <a className="btn btn-primary" href={fileUrl(output, true)} download>
            Скачать
          </a>
          <Button variant="secondary" onClick={onClose}>
            Закрыть
          </Button>
        </>
      }
    >
      <div className="gen-viewer__stage">
        {run.variant === 'video' ? <video className="gen-viewer__media" src={fileUrl(output)} controls playsInline /> : <img className="gen-viewer__media" src={fileUrl(output)} alt={run.prompt || run.product} />}
      </div>
      <div className="gen-viewer__about" id={describedBy}>
        {run.prompt && (
          <p className="gen-viewer__prompt">
            <span className="gen-viewer__label">Запрос: </span>
            {run.prompt}
          </p>
        )}
        <p className="gen-viewer__meta">
          {run.email} · {run.product} · {run.model} · {walletAmount(run.wallet, run.cost)} · {when(run.created_at)}
        </p>
      </div>
    </LazyDialog>
  );
}
