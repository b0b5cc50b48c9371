import { useEffect, useRef, useState } from 'react';
import { CHAT_LIMITS, ChatSendFieldsSchema, type ChatMessage, type User, type WidgetProps } from '@app/contracts/browser';
import { routeKey, useKitQueryClient, useRouteQuery, type LoadState } from '@app/kit';
import { useTopUp } from '@app/kit/too-few-tokens';
import { chatApi, type ChatApi } from './api.ts';
import { IMAGE_TEXTS, callFailure, firstIssues, imageProblem, modelChoices, type ModelChoice } from './chat-utils.ts';
import { ChatView } from './ChatView.tsx';
import { useChatList } from './use-chat-list.ts';
import { useChatSend, type LiveExchange } from './use-chat-send.ts';
import type { Attachment, ChatDialog, ChatEntry, Conversation, ShownMessage } from './types.ts';

/** How often a chat whose answer is still being written (opened from the history) is read again. */
export const POLL_MS = 1500;
const MODEL_KEY = 'neurostudio.chat.model';

/** `?id=N` of the page's address: the chat to open. */
function chatIdFromUrl(): number | null {
  const id = Number(new URLSearchParams(window.location.search).get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

const preview = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (url: string) => {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

const toShown = (m: ChatMessage): ShownMessage => ({ key: `m${String(m.id)}`, role: m.role, text: m.text, model: m.model, status: m.status, words: m.words, images: m.images.map((i) => ({ url: i.url, name: i.name })) });

/** The history of the open chat with the exchange being sent, whose live copy wins over the history's until the history has it done. */
function withLive(history: readonly ChatMessage[], live: LiveExchange | null): ShownMessage[] {
  if (!live) return history.map(toShown);
  const liveIds = new Set([live.user.id, live.answer?.id].filter((id): id is number => id !== null && id !== undefined));
  return [...history.filter((m) => !liveIds.has(m.id)).map(toShown), live.user, ...(live.answer ? [live.answer] : [])];
}

function liveStatus(live: LiveExchange | null): string {
  if (!live) return '';
  if (live.phase === 'sending') return 'Отправляем сообщение…';
  if (live.phase === 'stopping') return 'Останавливаем ответ…';
  const status = live.answer?.status;
  if (status === 'generating') return 'Модель пишет ответ…';
  if (status === 'done') return 'Ответ готов';
  if (status === 'stopped') return 'Ответ остановлен';
  if (status === 'failed') return 'Ошибка при выполнении запроса';
  return '';
}

export interface ChatProps extends WidgetProps<'chat'> {
  api?: ChatApi;
  /** How often a chat with an answer still being written is read again. */
  pollMs?: number;
  /** How often the answer being streamed is drawn again. */
  flushMs?: number;
}

/**
 * The AI chat (seed «Chat screen», §4, §8): the chats in the sidebar (renamed and deleted there),
 * the open chat's messages, and the composer that streams the answer. «Новый чат» resets the
 * chat id; sending sets the id the server returns, which the address keeps (`/chat?id=N`).
 * After an answer, the words it cost come off the balance the page's other widgets show.
 */
export function Chat({ plansUrl, packagesUrl, api = chatApi, pollMs = POLL_MS, flushMs }: ChatProps) {
  const client = useKitQueryClient();
  const [chatId, setChatId] = useState<number | null>(chatIdFromUrl);
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const attachmentsRef = useRef<Attachment[]>([]);
  const [imageError, setImageError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(storedChoice);
  const [dialog, setDialog] = useState<ChatDialog>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  /** A chat just created, shown at the top of the list until the list read again has it. */
  const [fresh, setFresh] = useState<ChatEntry | null>(null);
  const sent = useRef<{ text: string; attachments: Attachment[] } | null>(null);
  const [focusToken, setFocusToken] = useState(0);
  /** A chat was deleted while its dialog was open: when the dialog closes, its button is gone. */
  const deletedRef = useRef(false);

  const list = useChatList(api);
  const models = useRouteQuery(api.models);
  const user = useRouteQuery(api.user, undefined, { refetchOnWindowFocus: true });

  const changeAttachments = (next: Attachment[]) => {
    attachmentsRef.current = next;
    setAttachments(next);
  };

  const sender = useChatSend(
    api,
    {
      onStarted: (start, isNew) => {
        // The chat written in is now the most recent: the list is read again to put it first.
        if (!isNew) {
          void list.refresh();
          return;
        }
        // The new chat has no history to read yet: its messages are the live ones.
        client.setQueryData<ChatMessage[]>(routeKey(api.messages.route, { params: { id: start.chat_id } }), []);
        setChatId(start.chat_id);
        setFresh({ id: start.chat_id, text: sent.current?.text ?? '' });
        void list.refresh();
      },
      onDone: (result) => {
        client.setQueryData<User>(routeKey(api.user.route, {}), (old) => old && { ...old, balances: result.balances });
      },
      onRefused: () => {
        const back = sent.current;
        sent.current = null;
        if (!back) return;
        // The server did not take the message: it comes back to the composer, unless the user typed a new one.
        setText((current) => current || back.text);
        if (attachmentsRef.current.length === 0) changeAttachments(back.attachments);
      },
      onSettled: async (id, answerId) => {
        if (id === null || answerId === null) return true;
        const key = routeKey(api.messages.route, { params: { id } });
        await client.invalidateQueries({ queryKey: key });
        const kept = client.getQueryData<ChatMessage[]>(key)?.some((m) => m.id === answerId) ?? false;
        // The history shows the images from the server now: the previews can go.
        const done = sent.current;
        if (kept) {
          sent.current = null;
          for (const a of done?.attachments ?? []) revoke(a.url);
        }
        return kept;
      },
    },
    flushMs,
  );
  const topUp = useTopUp(api.check, sender.failure?.kind === 'tooFewWords');
  const live = sender.live && (sender.live.chatId === chatId || (sender.live.chatId === null && chatId === null)) ? sender.live : null;

  const messages = useRouteQuery(
    api.messages,
    { params: { id: chatId ?? 0 } },
    {
      enabled: chatId !== null,
      // An answer still being written (opened from the history, or in another tab) is read again until it is not.
      refetchInterval: (query) => (query.state.data?.some((m) => m.status === 'generating') && !live ? pollMs : false),
    },
  );

  // An answer written without this page streaming it (opened from the history) settled its words on the server: read the balance again.
  const writing = messages.data?.some((m) => m.status === 'generating') ?? false;
  const wasWriting = useRef(false);
  useEffect(() => {
    if (wasWriting.current && !writing) void client.invalidateQueries({ queryKey: routeKey(api.user.route) });
    wasWriting.current = writing;
  }, [writing, client, api.user.route]);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (chatId === null) url.searchParams.delete('id');
    else url.searchParams.set('id', String(chatId));
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }, [chatId]);

  useEffect(
    () => () => {
      for (const a of attachmentsRef.current) revoke(a.url);
    },
    [],
  );

  const choices: LoadState<ModelChoice[]> = models.data ? { status: 'ready', data: modelChoices(models.data) } : models.isError ? { status: 'error', message: callFailure(models.error) } : { status: 'loading' };
  const choiceList = choices.status === 'ready' ? choices.data : [];
  const choice = choiceList.find((c) => c.key === picked) ?? choiceList[0];

  let conversation: Conversation;
  if (chatId === null) conversation = live ? { status: 'ready', data: withLive([], live) } : { status: 'new' };
  else if (messages.data) conversation = { status: 'ready', data: withLive(messages.data, live) };
  else if (messages.isError) conversation = { status: 'error', message: callFailure(messages.error) };
  else conversation = { status: 'loading' };

  const listState = list.state.status === 'ready' && fresh && !list.state.items.some((c) => c.id === fresh.id) ? { ...list.state, items: [fresh, ...list.state.items] } : list.state;

  const addFiles = (files: readonly File[]) => {
    if (files.length === 0) return;
    setImageError(null);
    void Promise.all(files.map(async (file) => ({ file, problem: await imageProblem(file) }))).then((checked) => {
      const problems = checked.map((c) => c.problem).filter((p): p is string => p !== null);
      const fine = checked.filter((c) => c.problem === null).map((c) => c.file);
      const room = CHAT_LIMITS.maxImages - attachmentsRef.current.length;
      const added = fine.slice(0, Math.max(0, room)).map((file) => ({ id: `${file.name}-${String(file.size)}-${Math.random().toString(36).slice(2)}`, file, url: preview(file) }));
      if (fine.length > added.length) problems.push(IMAGE_TEXTS.tooMany);
      if (added.length) changeAttachments([...attachmentsRef.current, ...added]);
      setImageError(problems.length ? problems.join('. ') : null);
    });
  };

  const onSend = () => {
    if (sender.phase !== 'idle') return;
    if (!choice) {
      sender.setFailure({ kind: 'message', message: 'Выберите модель' });
      return;
    }
    const parsed = ChatSendFieldsSchema.safeParse({ ai_models_id: choice.modelId, param: choice.param, message: text, chat_id: chatId ?? undefined });
    if (!parsed.success) {
      sender.setFailure({ kind: 'fields', fields: firstIssues(parsed.error.issues), message: null });
      return;
    }
    const files = attachmentsRef.current;
    sent.current = { text, attachments: files };
    setText('');
    changeAttachments([]);
    setImageError(null);
    sender.send({ chatId, message: parsed.data.message, modelId: choice.modelId, param: choice.param, files: files.map((a) => a.file), previews: files.map((a) => ({ url: a.url, name: a.file.name })) });
  };

  const leave = (next: number | null) => {
    sender.detach();
    setChatId(next);
    setSidebarOpen(false);
    setImageError(null);
    setFocusToken((n) => n + 1);
  };

  return (
    <ChatView
      list={listState}
      currentId={chatId}
      conversation={conversation}
      composer={{ text, attachments, imageError, choices, choiceKey: choice?.key ?? null, phase: sender.phase, failure: sender.failure, balance: user.data?.balances.words ?? null }}
      dialog={dialog}
      plansUrl={plansUrl}
      packagesUrl={packagesUrl}
      topUp={topUp}
      sidebarOpen={sidebarOpen}
      focusToken={focusToken}
      liveStatus={sender.failure?.kind === 'message' ? sender.failure.message : liveStatus(live)}
      onToggleSidebar={setSidebarOpen}
      onNewChat={() => leave(null)}
      onOpenChat={(id) => (id === chatId ? setSidebarOpen(false) : leave(id))}
      onLoadMore={list.loadMore}
      onRetryList={list.retry}
      onRetryConversation={() => void messages.refetch()}
      onDialog={(next) => {
        // The deleted chat's buttons are gone with it: the focus goes to the message field, not to the page.
        if (next === null && deletedRef.current) setFocusToken((n) => n + 1);
        deletedRef.current = false;
        setDialog(next);
      }}
      onRename={async (chat, title) => {
        const item = await api.rename({ params: { id: chat.id }, body: { title } });
        list.replace(item);
        if (fresh?.id === item.id) setFresh({ id: item.id, text: item.text });
      }}
      onDelete={async (chat) => {
        await api.remove({ params: { id: chat.id } });
        deletedRef.current = true;
        if (chat.id === chatId) leave(null);
        if (fresh?.id === chat.id) setFresh(null);
        client.removeQueries({ queryKey: routeKey(api.messages.route, { params: { id: chat.id } }) });
        await list.refresh();
      }}
      onText={(value) => {
        setText(value);
        if (sender.failure?.kind === 'fields') sender.setFailure(null);
      }}
      onChoice={(key) => {
        setPicked(key);
        try {
          window.localStorage.setItem(MODEL_KEY, key);
        } catch {
          // Private mode: the choice lasts this visit.
        }
      }}
      onFiles={addFiles}
      onRemoveAttachment={(id) => {
        const gone = attachmentsRef.current.find((a) => a.id === id);
        if (gone) revoke(gone.url);
        changeAttachments(attachmentsRef.current.filter((a) => a.id !== id));
        setImageError(null);
      }}
      onSend={onSend}
      onStop={sender.stop}
      onDismissFailure={() => sender.setFailure(null)}
    />
  );
}
