import type { ChatSearchHit } from '@app/contracts/browser';
import { LoadError, Skeleton } from '@app/kit';
import type { ChatSearchState } from './types.ts';

export const SEARCH_TEXTS = {
  label: 'Поиск по чатам',
  placeholder: 'Найти в чатах…',
  nothing: 'Ничего не нашлось',
  more: 'Показаны 30 последних совпадений: уточните запрос',
  inTitle: 'В названии',
  you: 'Вы: ',
} as const;

/** Text with the found words marked. */
function Marked({ pieces }: { pieces: ChatSearchHit['snippet'] }) {
  return (
    <>
      {pieces.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  );
}

/** What the search found: a chat's title (marked where it matched) and the matching part of a message; a click opens the chat there. */
export function SearchResults({ results, onOpenHit, onRetry }: { results: NonNullable<ChatSearchState['results']>; onOpenHit: (hit: ChatSearchHit) => void; onRetry: () => void }) {
  if (results.status === 'loading') return <Skeleton lines={4} />;
  if (results.status === 'error') return <LoadError message={results.message} onRetry={onRetry} />;
  const { hits, more } = results.data;
  if (hits.length === 0) return <p className="chat-sidebar__empty">{SEARCH_TEXTS.nothing}</p>;
  return (
    <>
      <ul className="chat-hits" aria-label="Найдено">
        {hits.map((hit) => (
          <li key={`${String(hit.chat_id)}-${String(hit.message_id ?? 'title')}`}>
            <button type="button" className="chat-hit" onClick={() => onOpenHit(hit)}>
              <span className="chat-hit__title">
                <Marked pieces={hit.title} />
              </span>
              <span className="chat-hit__text">
                {hit.message_id === null ? (
                  SEARCH_TEXTS.inTitle
                ) : (
                  <>
                    {hit.role === 'user' && SEARCH_TEXTS.you}
                    <Marked pieces={hit.snippet} />
                  </>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {more && <p className="chat-sidebar__empty">{SEARCH_TEXTS.more}</p>}
    </>
  );
}
