/* The page buttons of the lists (histories, the admin panel). Not a host module: the widgets that page bundle it, so pages without a list do not load it. */
/** Page buttons in chunks of 10 (seed §9): the chunk of the current page, with moves to the neighbouring chunks. */
export const PAGE_CHUNK = 10;

export function pageChunk(page: number, lastPage: number): number[] {
  const start = Math.floor((page - 1) / PAGE_CHUNK) * PAGE_CHUNK + 1;
  const end = Math.min(start + PAGE_CHUNK - 1, lastPage);
  return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
}

export function Pagination({ page, lastPage, onChange, disabled = false }: { page: number; lastPage: number; onChange: (page: number) => void; disabled?: boolean }) {
  if (lastPage <= 1) return null;
  const pages = pageChunk(page, lastPage);
  const first = pages[0] ?? 1;
  const last = pages[pages.length - 1] ?? lastPage;
  return (
    <nav className="pagination" aria-label="Страницы">
      {first > 1 && (
        <button type="button" className="pagination__btn" disabled={disabled} onClick={() => onChange(first - 1)} aria-label="Предыдущие страницы">
          «
        </button>
      )}
      {pages.map((p) => (
        <button key={p} type="button" className="pagination__btn" disabled={disabled} aria-current={p === page ? 'page' : undefined} onClick={() => onChange(p)}>
          {p}
        </button>
      ))}
      {last < lastPage && (
        <button type="button" className="pagination__btn" disabled={disabled} onClick={() => onChange(last + 1)} aria-label="Следующие страницы">
          »
        </button>
      )}
    </nav>
  );
}
