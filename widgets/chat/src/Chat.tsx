import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { CHAT_LIMITS, ChatSendFieldsSchema, type ChatMessage, type User, type WidgetProps } from '@app/contracts/browser';
import { queryState, routeKey, useKitQueryClient, useRouteQuery, type LoadState } from '@app/kit';
import { useMarkdownKit } from '@app/kit/lazy-markdown';
import { useTopUp } from '@app/kit/too-few-tokens';
import { chatApi, type ChatApi } from './api.ts';
import { IMAGE_TEXTS, callFailure, firstIssues, imageProblem, modelChoices, type ModelChoice } from './chat-utils.ts';
import { ChatView } from './ChatView.tsx';
import { useChatList } from './use-chat-list.ts';
import { useChatSend, type SendInput } from './use-chat-send.ts';
import { useOlderMessages } from './use-older-messages.ts';
import type { MessageActions } from './Conversation.tsx';
import { useDebounced } from './use-debounced.ts';
import { isHistoryExpensive } from './history-cost.ts';
import { useChatSummary } from './use-chat-summary.ts';
import { MODEL_KEY, chatIdFromUrl, hasAnswers, liveStatus, newestOf, preview, revoke, storedChoice, withLive } from './chat-state.ts';
import type { Attachment, ChatDialog, ChatEntry, Conversation } from './types.ts';

/** Fetched only when a chat's history has grown expensive enough to offer it. */
const SummaryOffer = lazy(() => import('./SummaryOffer.tsx').then((m) => ({ default: m.SummaryOffer })));

/** How often a chat whose answer is still being written (opened from the history) is read again. */
export const POLL_MS = 1500;

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
  /** The chat whose conversation was last shown (its history then needs no renderer to wait for). */
  const [shownChat, setShownChat] = useState<number | null>(null);
  /** A chat was deleted while its dialog was open: when the dialog closes, its button is gone. */
  const deletedRef = useRef(false);

  const list = useChatList(api);
  const models = useRouteQuery(api.models);
  // Read again whenever the page gets the focus back (staff may have credited words meanwhile), however recently it was read.
  const user = useRouteQuery(api.user, undefined, { refetchOnWindowFocus: 'always' });
  const [searchText, setSearchText] = useState('');
  const searchQuery = useDebounced(searchText.trim(), 300);
  const search = useRouteQuery(api.search, { query: { q: searchQuery } }, { enabled: searchQuery.length >= 2 });
  const [focusMessageId, setFocusMessageId] = useState<number | null>(null);

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
        client.setQueryData<ChatMessage[]>(routeKey(api.messages.route, newestOf(start.chat_id)), []);
        setChatId(start.chat_id);
        setFresh({ id: start.chat_id, text: sent.current?.text ?? '' });
        void list.refresh();
      },
      onDone: (result) => {
        client.setQueryData<User>(routeKey(api.user.route, {}), (old) => old && { ...old, balances: result.balances });
      },
      onRefused: () => {
        // The balance may have changed elsewhere (what the too-few-words panel names): read it again.
        void client.invalidateQueries({ queryKey: routeKey(api.user.route) });
        const back = sent.current;
        sent.current = null;
        if (!back) return;
        // The server did not take the message: it comes back to the composer, unless the user typed a new one.
        setText((current) => current || back.text);
        if (attachmentsRef.current.length === 0) changeAttachments(back.attachments);
      },
      onSettled: async (id, answerId) => {
        if (id === null || answerId === null) return true;
        const key = routeKey(api.messages.route, newestOf(id));
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
  // The answers' renderer is a chunk of its own: fetched once a chat is open (beside its history) or a message is typed or sent, never for a new chat's first view.
  const markdown = useMarkdownKit(chatId !== null || text !== '' || sender.live !== null);
  const topUp = useTopUp(api.check, sender.failure?.kind === 'tooFewWords');
  const live = sender.live && (sender.live.chatId === chatId || (sender.live.chatId === null && chatId === null)) ? sender.live : null;

  const messages = useRouteQuery(
    api.messages,
    newestOf(chatId ?? 0),
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

  const older = useOlderMessages(api, chatId, messages.data);
  const estimateText = useDebounced(text, 400);
  const estimate = useRouteQuery(
    api.estimate,
    { body: { ai_models_id: choice?.modelId ?? 0, ...(choice?.param === undefined ? {} : { param: choice.param }), ...(chatId === null ? {} : { chat_id: chatId }), message: estimateText, images: attachments.length } },
    // A new chat with nothing typed has no history to count: the price of an answer alone is shown
    // until there is something to send (and the page fetches nothing as it loads).
    { enabled: choice !== undefined && (chatId !== null || estimateText.trim() !== '' || attachments.length > 0), placeholderData: (previous) => previous, retry: false },
  );

  let conversation: Conversation;
  if (chatId === null) conversation = live ? { status: 'ready', data: withLive([], live) } : { status: 'new' };
  // A chat opened with answers in its history waits for their renderer (unless it cannot be fetched), so no answer shows its raw
  // Markdown first; a chat already shown (its answer streamed here) is not hidden again for it.
  else if (messages.data && (markdown.kit || markdown.failed || shownChat === chatId || !hasAnswers(older.messages))) conversation = { status: 'ready', data: withLive(older.messages, live) };
  else if (messages.isError) conversation = { status: 'error', message: callFailure(messages.error) };
  else conversation = { status: 'loading' };

  if (conversation.status === 'ready' && shownChat !== chatId) setShownChat(chatId);

  // A search result older than the pages read: older pages are read until it is among them (or the chat's first message is).
  const hitNotRead = focusMessageId !== null && conversation.status === 'ready' && !conversation.data.some((m) => m.id === focusMessageId);
  const { hasMore, loading: readingOlder, error: olderFailed } = older.state;
  const { loadOlder } = older;
  useEffect(() => {
    if (hitNotRead && hasMore && !readingOlder && !olderFailed) loadOlder();
  }, [hitNotRead, hasMore, readingOlder, olderFailed, loadOlder]);

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

  const shown = conversation.status === 'ready' ? conversation.data : [];
  const ask = (input: { message: string; previews: { url: string; name: string }[]; action: NonNullable<SendInput['action']> }) => {
    if (sender.phase !== 'idle' || chatId === null) return;
    if (!choice) {
      sender.setFailure({ kind: 'message', message: 'Выберите модель' });
      return;
    }
    sender.send({ chatId, message: input.message, modelId: choice.modelId, param: choice.param, files: [], previews: input.previews, action: input.action });
  };
  const actions: MessageActions = {
    busy: sender.phase !== 'idle' || shown.some((m) => m.status === 'generating'),
    onRegenerate: () => {
      const answer = shown.at(-1);
      const question = shown.findLast((m) => m.role === 'user');
      if (answer?.id == null || question?.id == null) return;
      ask({ message: question.text, previews: question.images, action: { kind: 'regenerate', questionId: question.id, replaces: [answer.id] } });
    },
    onEdit: (messageId, edited) => {
      const at = shown.findIndex((m) => m.id === messageId);
      if (at < 0) return;
      const replaces = shown.slice(at).flatMap((m) => (m.id == null ? [] : [m.id]));
      ask({ message: edited, previews: shown[at]?.images ?? [], action: { kind: 'edit', messageId, replaces } });
    },
    onVariant: (messageId) => {
      if (chatId === null) return;
      api
        .variant({ params: { id: chatId }, body: { message_id: messageId } })
        .then((list) => client.setQueryData<ChatMessage[]>(routeKey(api.messages.route, newestOf(chatId)), list))
        .catch((err: unknown) => sender.setFailure({ kind: 'message', message: callFailure(err) }));
    },
  };

  const leave = (next: number | null) => {
    sender.detach();
    setChatId(next);
    setSidebarOpen(false);
    setImageError(null);
    setFocusMessageId(null);
    setFocusToken((n) => n + 1);
  };

  const shownEstimate = estimate.isPlaceholderData ? null : estimate.data;
  // A new chat from a summary of this one opens as soon as it is written, its words off the balance.
  const summary = useChatSummary(api, chatId, (made) => {
    client.setQueryData<User>(routeKey(api.user.route, {}), (old) => old && { ...old, balances: made.balances });
    setFresh({ id: made.chat_id, text: made.title });
    void list.refresh();
    leave(made.chat_id);
  });

  return (
    <ChatView
      list={listState}
      currentId={chatId}
      conversation={conversation}
      older={older.state}
      onLoadOlder={older.loadOlder}
      composer={{ text, attachments, imageError, choices, choiceKey: choice?.key ?? null, phase: sender.phase, failure: sender.failure, balance: user.data?.balances.words ?? null, estimate: estimate.data ?? null }}
      actions={actions}
      composerExtra={
        chatId !== null &&
        (isHistoryExpensive(shownEstimate) || summary.state.phase === 'busy' || summary.state.error !== null) && (
          <Suspense fallback={null}>
            <SummaryOffer
              estimate={shownEstimate}
              state={summary.state}
              disabled={sender.phase !== 'idle'}
              onStart={() => summary.start(choice ? { ai_models_id: choice.modelId, param: choice.param } : null)}
            />
          </Suspense>
        )
      }
      focusMessageId={focusMessageId}
      search={{ text: searchText, results: searchQuery.length < 2 ? null : queryState(search) }}
      onSearch={setSearchText}
      onOpenHit={(hit) => {
        if (hit.chat_id !== chatId) leave(hit.chat_id);
        setSidebarOpen(false);
        setFocusMessageId(hit.message_id);
      }}
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
        client.removeQueries({ queryKey: routeKey(api.messages.route, newestOf(chat.id)) });
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
