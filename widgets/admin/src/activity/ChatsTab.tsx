import { useCallback, useId, useState } from 'react';
import { CHAT_SORTS, type AdminChat, type AdminChatDetail } from '@app/contracts/admin';
import { Button, LazyDialog, LoadError, Skeleton, failureMessage, formatWords, queryState, useRouteQuery } from '@app/kit';
import { LazyMarkdown } from '@app/kit/lazy-markdown';
import { AdminList, type Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { listHref, readListQuery, type ListQuery } from '../routes.ts';
import { when } from '../texts.ts';
import { fileUrl, idParam, withParams } from './address.ts';
import { Stamp, UserLink } from './cells.tsx';

const PATH = '/admin/chat_model';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

export function chatColumns(navigate: Navigate): Column<AdminChat>[] {
  return [
    { key: 'title', label: 'Название', render: (c) => <span className="admin-chat__title">{c.title || 'Без названия'}</span> },
    { key: 'email', label: 'Пользователь', render: (c) => <UserLink user={c} navigate={navigate} /> },
    { key: 'message_count', label: 'Сообщений', numeric: true, render: (c) => c.message_count },
    { key: 'words', label: 'Слов', numeric: true, render: (c) => formatWords(c.words) },
    { key: 'id', label: '№', sortable: true, numeric: true, render: (c) => c.id },
    { key: 'created_at', label: 'Создан', sortable: true, render: (c) => <Stamp iso={c.created_at} /> },
    { key: 'updated_at', label: 'Обновлён', sortable: true, render: (c) => <Stamp iso={c.updated_at} /> },
  ];
}

/**
 * «Чат» (/admin/chat_model): every user's chats, newest activity first; a chat opens read-only in a
 * window whose chat is in the address (`?chat=12`), so a link or back and forward show it again.
 */
export function ChatsTab({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const query = readListQuery(search, 'updated_at');
  const sort = CHAT_SORTS.find((s) => s === query.sort) ?? 'updated_at';
  const open = idParam(search, 'chat');
  const list = useRouteQuery(api.chats, { query: { q: query.q, sort, dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  const here = listHref(PATH, { ...query, sort }, 'updated_at');
  const onQuery = useCallback((next: ListQuery) => navigate(listHref(PATH, next, 'updated_at'), { replace: true }), [navigate]);
  return (
    <div className="admin-activity-list">
      <AdminList
        title="Чаты"
        columns={chatColumns(navigate)}
        state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
        query={{ ...query, sort }}
        onQuery={onQuery}
        onRetry={() => void list.refetch()}
        searchLabel="Поиск: email или название"
        rowHref={(c) => withParams(here, { chat: String(c.id) })}
        rowKey={(c) => c.id}
        navigate={navigate}
        empty="Чатов пока нет"
      />
      {open !== null && <ChatWindow api={api} id={open} navigate={navigate} onClose={() => navigate(here)} />}
    </div>
  );
}

/** One chat read-only: who, when, and its messages as their user and the model wrote them (the model's as the chat draws them: Markdown). */
type Message = AdminChatDetail['messages'][number];

/** Earlier pages of the open chat, read on demand (`before` the oldest message shown). */
function useEarlier(api: AdminApi, id: number, chat: AdminChatDetail | undefined) {
  const [earlier, setEarlier] = useState<{ id: number; messages: Message[]; more: boolean | null; loading: boolean; error: string | null }>({ id, messages: [], more: null, loading: false, error: null });
  const current = earlier.id === id ? earlier : { id, messages: [], more: null, loading: false, error: null };
  const oldest = current.messages[0]?.id ?? chat?.messages[0]?.id;
  const more = current.more ?? chat?.truncated ?? false;
  const load = () => {
    if (oldest === undefined || current.loading || !more) return;
    setEarlier({ ...current, loading: true, error: null });
    api.chat({ params: { id }, query: { before: oldest } }).then(
      (page) => setEarlier((e) => (e.id === id ? { ...e, messages: [...page.messages, ...e.messages], more: page.truncated, loading: false } : e)),
      (err: unknown) => setEarlier((e) => (e.id === id ? { ...e, loading: false, error: failureMessage(err) } : e)),
    );
  };
  return { messages: current.messages, more, loading: current.loading, error: current.error, load };
}

export function ChatWindow({ api, id, navigate, onClose }: { api: AdminApi; id: number; navigate: Navigate; onClose: () => void }) {
  const chat = useRouteQuery(api.chat, { params: { id }, query: {} });
  const earlier = useEarlier(api, id, chat.data);
  const describedBy = useId();
  return (
    <LazyDialog
      title={chat.data ? chat.data.title || 'Без названия' : `Чат №${String(id)}`}
      className="admin-chat-window"
      describedBy={describedBy}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Закрыть
        </Button>
      }
    >
      <div id={describedBy}>
        {chat.isPending && <Skeleton lines={6} />}
        {chat.isError && <LoadError message={failureMessage(chat.error)} onRetry={() => void chat.refetch()} />}
        {chat.data && <ChatView chat={{ ...chat.data, messages: [...earlier.messages, ...chat.data.messages] }} earlier={earlier} navigate={navigate} />}
      </div>
    </LazyDialog>
  );
}

function ChatView({ chat, earlier, navigate }: { chat: AdminChatDetail; earlier: { more: boolean; loading: boolean; error: string | null; load: () => void }; navigate: Navigate }) {
  return (
    <>
      <p className="admin-screen__meta">
        <UserLink user={chat} navigate={navigate} /> · №{chat.id} · создан {when(chat.created_at)} · обновлён {when(chat.updated_at)} · сообщений: {chat.message_count} · слов: {formatWords(chat.words)}
      </p>
      {earlier.error && <LoadError message={earlier.error} onRetry={earlier.load} />}
      {earlier.more && !earlier.error && (
        <p className="admin-chat__earlier">
          <span className="admin-muted">Показаны последние {chat.messages.length} сообщений из {chat.message_count}.</span>{' '}
          <Button variant="ghost" busy={earlier.loading} onClick={earlier.load}>
            Показать более ранние сообщения
          </Button>
        </p>
      )}
      {chat.messages.length === 0 ? (
        <p className="admin-muted">В чате нет сообщений</p>
      ) : (
        <ol className="admin-chat__messages" aria-label="Сообщения">
          {chat.messages.map((m) => (
            <li key={m.id} className={`admin-chat__message admin-chat__message--${m.role}${m.replaced ? ' admin-chat__message--replaced' : ''}`}>
              <p className="admin-chat__who">
                <strong>{m.role === 'user' ? 'Пользователь' : (m.model ?? 'Модель')}</strong>
                <span>{when(m.created_at)}</span>
                {m.status !== 'done' && <span className={`admin-badge admin-badge--${m.status}`}>{MESSAGE_STATUS[m.status]}</span>}
                {m.replaced && (
                  <span className="admin-badge" title="Пользователь попросил ответ заново или изменил вопрос: этой версии нет в его переписке, слова за неё списаны">
                    Заменено
                  </span>
                )}
                {m.role === 'assistant' && (m.words > 0 || m.input_tokens !== null) && (
                  <span>
                    {formatWords(m.words)} сл.
                    {m.input_tokens !== null && ` · токенов: ${String(m.input_tokens)} → ${String(m.output_tokens ?? 0)}`}
                  </span>
                )}
              </p>
              {m.text && (m.role === 'assistant' ? <LazyMarkdown className="admin-chat__answer" text={m.text} /> : <div className="admin-chat__text">{m.text}</div>)}
              {m.error && <p className="admin-run__error">{m.error}</p>}
              {m.files.length > 0 && (
                <ul className="admin-chat__files" aria-label="Вложения">
                  {m.files.map((f) => (
                    <li key={f}>
                      <a href={fileUrl(f)} target="_blank" rel="noopener noreferrer">
                        <img src={fileUrl(f)} alt={`Вложение ${String(f)}`} loading="lazy" />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

const MESSAGE_STATUS: Record<AdminChatDetail['messages'][number]['status'], string> = { done: 'Готово', generating: 'Пишется', stopped: 'Остановлено', failed: 'Ошибка' };
