import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CHAT_LIMITS, CHAT_TEXTS } from '@app/contracts/browser';
import { Alert, Button, LoadError, Skeleton, WordsIcon, formatWords, preloadDialogKit, upTo, wordsAmount } from '@app/kit';
import { TooFewTokensView, type TopUp } from '@app/kit/too-few-tokens';
import { cutTitle, type ModelChoice } from './chat-utils.ts';
import { Markdown } from '@app/kit/markdown';
import { DeleteDialog, RenameDialog } from './dialogs.tsx';
import { EXAMPLES, TEXTS } from './texts.ts';
import type { Attachment, ChatDialog, ChatEntry, ChatListState, ComposerState, Conversation, ShownMessage } from './types.ts';

export interface ChatViewProps {
  list: ChatListState;
  currentId: number | null;
  conversation: Conversation;
  composer: ComposerState;
  dialog: ChatDialog;
  /** Where the too-few-words panel sends the user: the packages with a current plan (`topUp`), the plans otherwise. */
  plansUrl: string;
  packagesUrl: string;
  topUp: TopUp;
  /** On a phone: the chat list is open over the conversation. */
  sidebarOpen: boolean;
  /** A message for screen readers about the answer being written («Ответ готов»…). */
  liveStatus: string;
  onToggleSidebar: (open: boolean) => void;
  onNewChat: () => void;
  onOpenChat: (id: number) => void;
  onLoadMore: () => void;
  onRetryList: () => void;
  onRetryConversation: () => void;
  onDialog: (dialog: ChatDialog) => void;
  onRename: (chat: ChatEntry, title: string) => Promise<unknown>;
  onDelete: (chat: ChatEntry) => Promise<unknown>;
  onText: (text: string) => void;
  onChoice: (key: string) => void;
  onFiles: (files: readonly File[]) => void;
  onRemoveAttachment: (id: string) => void;
  onSend: () => void;
  onStop: () => void;
  onDismissFailure: () => void;
  /** Errors of the dialogs, shown from the start (stories). */
  dialogErrors?: Record<string, string[]>;
  /** Changes when the message field should take the focus (another chat opened, «Новый чат»). */
  focusToken?: number;
}

function PlusIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function ListIcon() {
  return (
    <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function SendIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <path d="M10 16V4M4.5 9.5 10 4l5.5 5.5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function ClipIcon() {
  return (
    <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <path d="M13.5 6.5l-5.8 5.8a1.6 1.6 0 002.3 2.3l6-6a3.2 3.2 0 00-4.5-4.5l-6 6a4.8 4.8 0 006.8 6.8l5-5" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function PencilIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <path d="M12.8 4.2l3 3M4 16l.8-3.6 8.6-8.6a1.5 1.5 0 012.1 0l.7.7a1.5 1.5 0 010 2.1l-8.6 8.6L4 16z" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <path d="M4 6h12M8 6V4.5h4V6M5.5 6l.8 9.5h7.4l.8-9.5M8.5 9v4M11.5 9v4" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

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


function Sidebar({ list, currentId, open, onNewChat, onOpenChat, onLoadMore, onRetryList, onDialog, onClose }: Pick<ChatViewProps, 'list' | 'currentId' | 'onNewChat' | 'onOpenChat' | 'onLoadMore' | 'onRetryList' | 'onDialog'> & { open: boolean; onClose: () => void }) {
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
    </nav>
  );
}

function MessageView({ message }: { message: ShownMessage }) {
  const mine = message.role === 'user';
  const author = mine ? CHAT_TEXTS.you : (message.model ?? 'ИИ');
  return (
    <li className={`chat-msg chat-msg--${message.role}${message.status === 'failed' ? ' chat-msg--failed' : ''}`}>
      <article className="chat-msg__inner" aria-label={author} aria-busy={message.status === 'generating' || undefined}>
        <p className="chat-msg__author">{author}</p>
        {message.images.length > 0 && (
          <ul className="chat-msg__images">
            {message.images.map((image) => (
              <li key={image.url}>
                <a href={image.url} target="_blank" rel="noopener noreferrer">
                  <img src={image.url} alt={image.name} loading="lazy" />
                </a>
              </li>
            ))}
          </ul>
        )}
        {mine ? <p className="chat-msg__text">{message.text}</p> : message.text && <Markdown text={message.text} />}
        {!mine && message.status === 'generating' && (
          <p className="chat-msg__writing">
            <span className="chat-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            {TEXTS.generating}
          </p>
        )}
        {!mine && message.status === 'failed' && <p className="chat-msg__failed">{CHAT_TEXTS.requestFailed}</p>}
        {!mine && (message.status === 'done' || message.status === 'stopped') && (
          <p className="chat-msg__meta">
            {message.status === 'stopped' && <span className="chat-badge">{TEXTS.stopped}</span>}
            {message.words > 0 && <span>Списано {wordsAmount(message.words)}</span>}
          </p>
        )}
      </article>
    </li>
  );
}

/** A 402: the heading says it (the server's «Недостаточно токенов» would only repeat it); the text says what an answer may cost and what is on the balance. */
function TooFewWords({ plansUrl, packagesUrl, topUp, balance, price, onDismiss }: { plansUrl: string; packagesUrl: string; topUp: TopUp; balance: number | null; price: number | null; onDismiss: () => void }) {
  return (
    <TooFewTokensView wallet="words" topUp={topUp} plansUrl={plansUrl} packagesUrl={packagesUrl} headingLevel={3} onDismiss={onDismiss}>
      {price !== null && (
        <>
          Ответ этой модели может стоить {upTo('words', price)}
          {balance === null ? '.' : ', '}
        </>
      )}
      {balance !== null && (
        <>
          {price !== null ? 'на балансе' : 'На балансе'} {wordsAmount(balance)}.
        </>
      )}
    </TooFewTokensView>
  );
}

function EmptyChat({ onExample }: { onExample: (text: string) => void }) {
  return (
    <div className="chat-empty">
      <div className="chat-empty__badge" aria-hidden="true">
        ✦
      </div>
      <h2 className="chat-empty__title">{TEXTS.emptyTitle}</h2>
      <p className="chat-empty__text">{TEXTS.emptyText}</p>
      <ul className="chat-empty__examples">
        {EXAMPLES.map((example) => (
          <li key={example}>
            <button type="button" className="chat-example" onClick={() => onExample(example)}>
              {example}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Keeps the newest message in view while the user is at the bottom (not when they scrolled up to read). */
function useStickToBottom(deps: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (el && atBottom.current && typeof el.scrollTo === 'function') el.scrollTo({ top: el.scrollHeight });
  }, [deps]);
  const onScroll = () => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };
  return { ref, onScroll };
}

/** Choices of one model: a group of its parameters, or the model itself when it has none. */
function groupByModel(choices: readonly ModelChoice[]): { modelId: number; name: string; choices: ModelChoice[] }[] {
  const groups: { modelId: number; name: string; choices: ModelChoice[] }[] = [];
  for (const choice of choices) {
    const last = groups.at(-1);
    if (last?.modelId === choice.modelId) last.choices.push(choice);
    else groups.push({ modelId: choice.modelId, name: choice.model.name, choices: [choice] });
  }
  return groups;
}

/**
 * The model (and its parameter) of the next message: a native select (the phone's own picker),
 * each model with parameters a group of them. An option keeps the model's name («GPT-4o · Точно»):
 * the closed select shows only the chosen option, whole (it takes a row of its own on a phone).
 */
function ModelPicker({ composer, onChoice, disabled }: { composer: ComposerState; onChoice: (key: string) => void; disabled: boolean }) {
  const selectId = useId();
  const { choices, choiceKey } = composer;
  if (choices.status === 'loading') return <span className="chat-model chat-model--loading">Загружаем модели…</span>;
  if (choices.status === 'error') return <span className="chat-model chat-model--error">{choices.message}</span>;
  const selected: ModelChoice | undefined = choices.data.find((c) => c.key === choiceKey);
  return (
    <div className="chat-model">
      <label className="visually-hidden" htmlFor={selectId}>
        {TEXTS.modelLabel}
      </label>
      <span className={`chat-model__select${selected ? '' : ' chat-model__select--empty'}`}>
        <select id={selectId} value={selected ? selected.key : ''} disabled={disabled} title={selected?.label} onChange={(event) => event.target.value && onChoice(event.target.value)}>
          {!selected && (
            <option value="" disabled>
              {TEXTS.modelPlaceholder}
            </option>
          )}
          {groupByModel(choices.data).map((group) =>
            group.choices[0]?.param === undefined ? (
              group.choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))
            ) : (
              <optgroup key={group.modelId} label={group.name}>
                {group.choices.map((c) => (
                  <option key={c.key} value={c.key}>
                    {c.label}
                  </option>
                ))}
              </optgroup>
            ),
          )}
        </select>
      </span>
    </div>
  );
}

/** What an answer of the chosen model may cost: «до 1 024 слов за ответ» (beside the select; under it, with the balance, on a phone). */
function PriceHint({ composer }: { composer: ComposerState }) {
  if (composer.choices.status !== 'ready') return null;
  const selected = composer.choices.data.find((c) => c.key === composer.choiceKey);
  if (!selected) return null;
  return (
    <span className="chat-model__price">
      {upTo('words', selected.model.max_words)} за ответ{selected.model.provider === 'Демо' ? ' · демо' : ''}
    </span>
  );
}

function Composer({ composer, focusToken, onText, onChoice, onFiles, onRemoveAttachment, onSend, onStop }: Pick<ChatViewProps, 'composer' | 'focusToken' | 'onText' | 'onChoice' | 'onFiles' | 'onRemoveAttachment' | 'onSend' | 'onStop'>) {
  const inputId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusToken) inputRef.current?.focus();
  }, [focusToken]);
  const errorsId = useId();
  const hintId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { phase, failure } = composer;
  const fieldErrors = failure?.kind === 'fields' ? failure.fields : {};
  const messageErrors = fieldErrors.message ?? [];
  const otherErrors = Object.entries(fieldErrors)
    .filter(([field]) => field !== 'message')
    .flatMap(([, messages]) => messages);
  const busy = phase !== 'idle';
  const answering = phase === 'streaming' || phase === 'stopping';
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition does neither.
    // (Safari sends that Enter after compositionend, with the legacy keyCode 229.)
    const legacy = event.nativeEvent as unknown as { keyCode?: number };
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || legacy.keyCode === 229) return;
    event.preventDefault();
    if (!busy) onSend();
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    onFiles(files);
  };
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    onFiles(Array.from(event.dataTransfer.files));
  };
  const imageErrors = [...(composer.imageError ? [composer.imageError] : []), ...otherErrors];
  return (
    <form
      className={`chat-composer${dragging ? ' chat-composer--drop' : ''}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSend();
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {failure?.kind === 'message' && <Alert>{failure.message}</Alert>}
      {composer.attachments.length > 0 && (
        <ul className="chat-attachments" aria-label="Прикреплённые изображения">
          {composer.attachments.map((a: Attachment) => (
            <li key={a.id} className="chat-attachment">
              {a.url ? <img src={a.url} alt={a.file.name} /> : <span className="chat-attachment__name">{a.file.name}</span>}
              <button type="button" className="chat-attachment__remove" aria-label={`Убрать изображение «${a.file.name}»`} onClick={() => onRemoveAttachment(a.id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {imageErrors.length > 0 && (
        <ul className="field__errors chat-composer__errors" role="alert">
          {imageErrors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <div className={`chat-composer__box${messageErrors.length ? ' chat-composer__box--invalid' : ''}`}>
        <label className="visually-hidden" htmlFor={inputId}>
          {TEXTS.messageLabel}
        </label>
        <textarea
          ref={inputRef}
          id={inputId}
          className="chat-composer__input"
          rows={2}
          value={composer.text}
          placeholder={TEXTS.placeholder}
          maxLength={CHAT_LIMITS.messageMaxLength}
          aria-invalid={messageErrors.length > 0 || undefined}
          aria-describedby={messageErrors.length ? errorsId : hintId}
          onChange={(event) => onText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {dragging && <div className="chat-composer__drop">{TEXTS.dropHere}</div>}
        <div className="chat-composer__bar">
          <input
            ref={fileRef}
            type="file"
            accept={CHAT_LIMITS.imageTypes.join(',')}
            multiple
            hidden
            data-testid="chat-file-input"
            onChange={(event) => {
              onFiles(Array.from(event.target.files ?? []));
              event.target.value = '';
            }}
          />
          <button type="button" className="chat-icon-btn" aria-label={TEXTS.attach} title={`${TEXTS.attach} (PNG или JPEG, до ${String(CHAT_LIMITS.maxImages)})`} onClick={() => fileRef.current?.click()}>
            <ClipIcon />
          </button>
          <ModelPicker composer={composer} onChoice={onChoice} disabled={busy} />
          <PriceHint composer={composer} />
          <span className="chat-composer__spacer" />
          {composer.balance !== null && (
            <span className="chat-composer__balance" title="Баланс слов">
              <WordsIcon title="Баланс слов" /> {formatWords(composer.balance)}
            </span>
          )}
          {answering ? (
            <Button variant="secondary" className="chat-send" busy={phase === 'stopping'} onClick={onStop}>
              {phase !== 'stopping' && <span className="chat-stop-square" aria-hidden="true" />}
              <span className="chat-send__text">{TEXTS.stop}</span>
            </Button>
          ) : (
            <Button type="submit" className="chat-send" busy={phase === 'sending'}>
              {phase !== 'sending' && <SendIcon />}
              <span className="chat-send__text">{TEXTS.send}</span>
            </Button>
          )}
        </div>
      </div>
      {messageErrors.length > 0 ? (
        <ul className="field__errors" id={errorsId}>
          {messageErrors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : (
        <p className="chat-composer__hint" id={hintId}>
          {TEXTS.hint}
        </p>
      )}
    </form>
  );
}

function ConversationView({ conversation, onRetry, onExample, footer }: { conversation: Conversation; onRetry: () => void; onExample: (text: string) => void; footer: ReactNode }) {
  const messages = conversation.status === 'ready' ? conversation.data : [];
  const last = messages.at(-1);
  const { ref, onScroll } = useStickToBottom(`${String(messages.length)}:${String(last?.text.length ?? 0)}:${conversation.status}`);
  return (
    // Focusable, so the keyboard can scroll the conversation.
    <div className="chat-conversation" ref={ref} onScroll={onScroll} tabIndex={0} role="region" aria-label="Переписка">
      <div className="chat-conversation__inner">
        {conversation.status === 'new' && <EmptyChat onExample={onExample} />}
        {conversation.status === 'loading' && <Skeleton lines={6} />}
        {conversation.status === 'error' && <LoadError message={conversation.message} onRetry={onRetry} />}
        {conversation.status === 'ready' && messages.length === 0 && <EmptyChat onExample={onExample} />}
        {messages.length > 0 && (
          <ol className="chat-messages" aria-label="Сообщения">
            {messages.map((m) => (
              <MessageView key={m.key} message={m} />
            ))}
          </ol>
        )}
        {footer}
      </div>
    </div>
  );
}

/** The chat screen (seed «Chat screen»): sidebar with the chats, the conversation and the composer, every state from props. */
export function ChatView(props: ChatViewProps) {
  const { list, currentId, conversation, composer, dialog, sidebarOpen, onToggleSidebar } = props;
  const current = list.status === 'ready' ? list.items.find((c) => c.id === currentId) : undefined;
  // A chat beyond the chats read so far (opened by its address) is titled, as the server titles a
  // new chat, by its first message until the list has it; «Чат» only while neither is read.
  const firstAsked = conversation.status === 'ready' ? conversation.data.find((m) => m.role === 'user')?.text.trim() : undefined;
  const fullTitle = current?.text ?? (firstAsked || undefined);
  const heading = currentId === null ? CHAT_TEXTS.newChat : fullTitle ? cutTitle(fullTitle) : TEXTS.chat;
  const failure = composer.failure;
  const price = composer.choices.status === 'ready' ? (composer.choices.data.find((c) => c.key === composer.choiceKey)?.model.max_words ?? null) : null;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeSidebar = () => {
    onToggleSidebar(false);
    toggleRef.current?.focus();
  };
  return (
    <div className="chat-frame">
      <div className={`chat${sidebarOpen ? ' chat--sidebar-open' : ''}`}>
        <Sidebar
          list={list}
          currentId={currentId}
          open={sidebarOpen}
          onNewChat={props.onNewChat}
          onOpenChat={props.onOpenChat}
          onLoadMore={props.onLoadMore}
          onRetryList={props.onRetryList}
          onDialog={props.onDialog}
          onClose={closeSidebar}
        />
        {sidebarOpen && <div className="chat-scrim" aria-hidden="true" onClick={closeSidebar} />}
        <section className="chat-main" aria-label={heading}>
          <header className="chat-main__head">
            <button ref={toggleRef} type="button" className="chat-icon-btn chat-main__toggle" aria-label={TEXTS.openChats} aria-expanded={sidebarOpen} aria-controls="chat-sidebar" onClick={() => onToggleSidebar(!sidebarOpen)}>
              <ListIcon />
            </button>
            <h1 className="chat-main__title" title={currentId === null ? undefined : fullTitle}>
              {heading}
            </h1>
            <button type="button" className="chat-icon-btn chat-main__new" aria-label={CHAT_TEXTS.newChat} onClick={props.onNewChat}>
              <PlusIcon />
            </button>
          </header>
          <ConversationView
            conversation={conversation}
            onRetry={props.onRetryConversation}
            onExample={props.onText}
            footer={failure?.kind === 'tooFewWords' && <TooFewWords plansUrl={props.plansUrl} packagesUrl={props.packagesUrl} topUp={props.topUp} balance={composer.balance} price={price} onDismiss={props.onDismissFailure} />}
          />
          <Composer composer={composer} focusToken={props.focusToken} onText={props.onText} onChoice={props.onChoice} onFiles={props.onFiles} onRemoveAttachment={props.onRemoveAttachment} onSend={props.onSend} onStop={props.onStop} />
          <p className="visually-hidden" aria-live="polite" role="status">
            {props.liveStatus}
          </p>
        </section>
        {dialog?.kind === 'rename' && <RenameDialog chat={dialog.chat} errors={props.dialogErrors} onSubmit={(title) => props.onRename(dialog.chat, title)} onClose={() => props.onDialog(null)} />}
        {dialog?.kind === 'delete' && <DeleteDialog chat={dialog.chat} error={props.dialogErrors?.delete?.[0] ?? null} onConfirm={() => props.onDelete(dialog.chat)} onClose={() => props.onDialog(null)} />}
      </div>
    </div>
  );
}
