import { useEffect, useId, useRef } from 'react';
import { CHAT_TEXTS } from '@app/contracts/browser';
import { Button, LoadError, Skeleton, preloadDialogKit } from '@app/kit';
import { cutTitle } from './chat-utils.ts';
import type { ChatViewProps } from './ChatView.tsx';
import { PencilIcon, PlusIcon, TrashIcon } from './icons.tsx';
import { TEXTS } from './texts.ts';
import { SEARCH_TEXTS, SearchResults } from './SearchResults.tsx';
import type { ChatEntry } from './types.ts';

/**
 * Loads the next chunk when the user scrolls the list down to the «Показать ещё» button (an
 * IntersectionObserver on it within the list). Never at open: when the first chunk does not fill
 * the list the button is in view unscrolled, and a click on it (or, without IntersectionObserver,
 * the button alone) loads more.
 */
function useLoadOnScroll(enabled: boolean, onVisible: () => void) {
  const listRef = useRef<HTMLDivElement>(null);
  const moreRef = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  useEffect(() => {
    latest.current = onVisible;
  });
  useEffect(() => {
    const root = listRef.current;
    const el = moreRef.current;
    if (!enabled || !root || !el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (root.scrollTop > 0 && entries.some((e) => e.isIntersecting)) latest.current();
      },
      { root },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [enabled]);
  return { listRef, moreRef };
}

/**
 * The accessible names of a row's buttons: the chat's whole title («Удалить чат «План статьи о
 * здоровом сне»»), so two chats whose titles start alike are told apart; chats with the very same
 * title are numbered top down («… «Привет» (2)»).
 */
function rowNames(items: readonly ChatEntry[]): Map<number, string> {
  const total = new Map<string, number>();
  for (const chat of items) total.set(chat.text.trim(), (total.get(chat.text.trim()) ?? 0) + 1);
  const seen = new Map<string, number>();
  const names = new Map<number, string>();
  for (const chat of items) {
    const title = chat.text.trim();
    const n = (seen.get(title) ?? 0) + 1;
    seen.set(title, n);
    names.set(chat.id, (total.get(title) ?? 0) > 1 ? `«${title}» (${String(n)})` : `«${title}»`);
  }
  return names;
}

/** The chats (read a chunk at a time), each with its rename and delete buttons; over the conversation on a phone. */
export function Sidebar({
  list,
  currentId,
  open,
  onNewChat,
  onOpenChat,
  onLoadMore,
  onRetryList,
  onDialog,
  onClose,
  search,
  onSearch,
  onOpenHit,
}: Pick<ChatViewProps, 'list' | 'currentId' | 'onNewChat' | 'onOpenChat' | 'onLoadMore' | 'onRetryList' | 'onDialog' | 'search' | 'onSearch' | 'onOpenHit'> & { open: boolean; onClose: () => void }) {
  const searchId = useId();
  const titleId = useId();
  const canLoad = list.status === 'ready' && list.hasMore && !list.loadingMore;
  const { listRef, moreRef } = useLoadOnScroll(canLoad, onLoadMore);
  const names = list.status === 'ready' ? rowNames(list.items) : new Map<number, string>();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Opened over the conversation (a phone): the focus goes into the panel.
    if (open) closeRef.current?.focus();
  }, [open]);
  return (
    <nav className={`chat-sidebar${open ? ' chat-sidebar--open' : ''}`} id="chat-sidebar" aria-labelledby={titleId} onKeyDown={(e) => e.key === 'Escape' && open && onClose()}>
      <div className="chat-sidebar__head">
        <h2 className="chat-sidebar__title" id={titleId}>
          {TEXTS.chats}
        </h2>
        <button ref={closeRef} type="button" className="chat-icon-btn chat-sidebar__close" aria-label={TEXTS.closeChats} onClick={onClose}>
          ×
        </button>
      </div>
      <Button block onClick={onNewChat} className="chat-sidebar__new">
        <PlusIcon /> {CHAT_TEXTS.newChat}
      </Button>
      {onSearch && (
        <div className="chat-search">
          <label className="visually-hidden" htmlFor={searchId}>
            {SEARCH_TEXTS.label}
          </label>
          <input id={searchId} type="search" className="input chat-search__input" placeholder={SEARCH_TEXTS.placeholder} value={search?.text ?? ''} maxLength={200} onChange={(e) => onSearch(e.target.value)} />
        </div>
      )}
      {search?.results && onOpenHit ? (
        <div className="chat-sidebar__list">
          <SearchResults results={search.results} onOpenHit={onOpenHit} onRetry={() => onSearch?.(`${search.text} `)} />
        </div>
      ) : (
      <div className="chat-sidebar__list" ref={listRef}>
        {list.status === 'loading' && <Skeleton lines={5} />}
        {list.status === 'error' && <LoadError message={list.message} onRetry={onRetryList} />}
        {list.status === 'ready' && list.items.length === 0 && <p className="chat-sidebar__empty">{TEXTS.noChats}</p>}
        {list.status === 'ready' && list.items.length > 0 && (
          <ul className="chat-list">
            {list.items.map((chat) => {
              const current = chat.id === currentId;
              const title = cutTitle(chat.text);
              const name = names.get(chat.id) ?? `«${title}»`;
              return (
                <li key={chat.id} className={`chat-list__item${current ? ' chat-list__item--current' : ''}`}>
                  <button type="button" className="chat-list__open" aria-current={current ? 'page' : undefined} title={chat.text} onClick={() => onOpenChat(chat.id)}>
                    {title}
                  </button>
                  <span className="chat-list__actions" onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit}>
                    <button type="button" className="chat-list__action" aria-label={`${TEXTS.renameChat} ${name}`} title={TEXTS.rename} onClick={() => onDialog({ kind: 'rename', chat })}>
                      <PencilIcon />
                    </button>
                    <button type="button" className="chat-list__action chat-list__action--danger" aria-label={`${TEXTS.removeChat} ${name}`} title={TEXTS.remove} onClick={() => onDialog({ kind: 'delete', chat })}>
                      <TrashIcon />
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {list.status === 'ready' && list.hasMore && (
          <div ref={moreRef} className="chat-sidebar__more">
            <Button variant="ghost" block busy={list.loadingMore} onClick={onLoadMore}>
              {TEXTS.showMore}
            </Button>
          </div>
        )}
      </div>
      )}
    </nav>
  );
}
