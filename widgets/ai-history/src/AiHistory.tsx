import { useEffect, useRef, useState } from 'react';
import type { WidgetProps } from '@app/contracts/browser';
import type { Generation } from '@app/contracts/generation';
import { failureMessage, routeKey, useKitQueryClient, useRouteQuery, type LoadState } from '@app/kit';
import { aiHistoryApi, type AiHistoryApi } from './api.ts';
import { AiHistoryView } from './AiHistoryView.tsx';
import { isActive, kindFromSearch, pageFromSearch } from './run-utils.ts';
import type { CopyNote, OpenResult } from './types.ts';

/** How often a page with a queued or running run is read again. */
export const POLL_MS = 2000;
/** How long «Скопировано» stays on the button. */
const COPIED_MS = 2000;

type HistoryPage = { data: Generation[]; last_page: number };

export interface AiHistoryProps extends WidgetProps<'ai-history'> {
  api?: AiHistoryApi;
  /** How often a page with a run still queued or running is read again. */
  pollMs?: number;
}

/**
 * The history of runs (PRODUCT.md «AI catalogue and generation»): images at /ai-history (text
 * runs at `?type=text`), video at /ai-history-video, 24 a page, newest first. While a run of the
 * page is queued or running the page is read again every `pollMs` (one request for all of them,
 * whichever process works on them), so its status, progress and result arrive by themselves.
 * The page number is kept in the address (`?page=n`).
 */
export function AiHistory({ type, productsUrl, api = aiHistoryApi, pollMs = POLL_MS }: AiHistoryProps) {
  const client = useKitQueryClient();
  const [kind] = useState(() => kindFromSearch(type, window.location.search));
  const [page, setPage] = useState(() => pageFromSearch(window.location.search));
  const [lastPage, setLastPage] = useState(1);
  const [open, setOpen] = useState<OpenResult | null>(null);
  const [cancelling, setCancelling] = useState<number[]>([]);
  const [cardErrors, setCardErrors] = useState<Record<number, string>>({});
  const [copied, setCopied] = useState<CopyNote | null>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const request = { query: { type: kind, page } };
  const history = useRouteQuery(api.history, request, {
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data?.data.some(isActive) ? pollMs : false),
  });
  const known = history.isPlaceholderData ? undefined : history.data?.last_page;
  if (known !== undefined && known !== lastPage) setLastPage(known);
  // A page past the end (runs of the last page gone, or an old address): the last one instead.
  if (known !== undefined && page > known) setPage(known);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (page === 1) url.searchParams.delete('page');
    else url.searchParams.set('page', String(page));
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }, [page]);

  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const state: LoadState<Generation[]> = history.isPlaceholderData
    ? { status: 'loading' }
    : history.data
      ? { status: 'ready', data: history.data.data }
      : history.isError
        ? { status: 'error', message: failureMessage(history.error) }
        : { status: 'loading' };

  const replaceRun = (run: Generation) => client.setQueryData<HistoryPage>(routeKey(api.history.route, request), (old) => old && { ...old, data: old.data.map((r) => (r.id === run.id ? run : r)) });

  const onCancel = (run: Generation) => {
    setCancelling((ids) => [...ids, run.id]);
    setCardErrors(({ [run.id]: _gone, ...rest }) => rest);
    api
      .cancel({ params: { id: run.id } })
      .then(replaceRun, (err: unknown) => setCardErrors((errors) => ({ ...errors, [run.id]: failureMessage(err) })))
      .finally(() => {
        setCancelling((ids) => ids.filter((id) => id !== run.id));
        // Refused because it started meanwhile, or cancelled: either way the list is read again.
        void client.invalidateQueries({ queryKey: routeKey(api.history.route) });
      });
  };

  const onCopy = (run: Generation) => {
    const note = (ok: boolean) => {
      setCopied({ id: run.id, ok });
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(null), COPIED_MS);
    };
    // Without a clipboard (an insecure origin) the button says it could not copy.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(run.text ?? ''))
      .then(
        () => note(true),
        () => note(false),
      );
  };

  return (
    <AiHistoryView
      kind={kind}
      productsUrl={productsUrl}
      page={page}
      lastPage={lastPage}
      state={state}
      open={open}
      cancelling={cancelling}
      cardErrors={cardErrors}
      copied={copied}
      onPageChange={(next) => {
        setPage(next);
        setOpen(null);
      }}
      onRetry={() => void history.refetch()}
      onCancel={onCancel}
      onOpen={setOpen}
      onClose={() => setOpen(null)}
      onCopy={onCopy}
    />
  );
}
