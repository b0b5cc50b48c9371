import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { CHAT_TEXTS } from '@app/contracts/browser';
import { Button, LoadError, Skeleton, upTo, wordsAmount } from '@app/kit';
import { TooFewTokensView, type TopUp } from '@app/kit/too-few-tokens';
import { AnswerText } from './AnswerText.tsx';
import { EXAMPLES, MESSAGE_TEXTS, TEXTS } from './texts.ts';
import type { Conversation, ShownMessage } from './types.ts';
import type { OlderState } from './use-older-messages.ts';

/** What the user can do with the messages: copy, answer again, edit the last message, switch variants. */
export interface MessageActions {
  /** An answer is being sent or written: nothing is asked again until it ends. */
  busy: boolean;
  onRegenerate: () => void;
  onEdit: (messageId: number, text: string) => void;
  onVariant: (messageId: number) => void;
}

function useCopied() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    copied,
    copy: (text: string) => {
      void navigator.clipboard
        .writeText(text)
        .then(() => {
          setCopied(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), 1500);
        })
        .catch(() => undefined);
    },
  };
}

/** «‹ Вариант 1 из 2 ›» of a place with several variants. */
function VariantSwitch({ id, variants, disabled, onVariant }: { id: number; variants: number[]; disabled: boolean; onVariant: (id: number) => void }) {
  const at = variants.indexOf(id);
  const prev = variants[at - 1];
  const next = variants[at + 1];
  return (
    <span className="chat-variants" role="group" aria-label={MESSAGE_TEXTS.variant(at + 1, variants.length)}>
      <button type="button" className="chat-msg__action" aria-label={MESSAGE_TEXTS.previous} disabled={disabled || prev === undefined} onClick={() => prev !== undefined && onVariant(prev)}>
        ‹
      </button>
      <span className="chat-variants__label">{MESSAGE_TEXTS.variant(at + 1, variants.length)}</span>
      <button type="button" className="chat-msg__action" aria-label={MESSAGE_TEXTS.next} disabled={disabled || next === undefined} onClick={() => next !== undefined && onVariant(next)}>
        ›
      </button>
    </span>
  );
}

function EditForm({ text, onSend, onCancel }: { text: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(text);
  return (
    <form
      className="chat-edit"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onSend(value.trim());
      }}
    >
      <textarea className="input chat-edit__field" aria-label={MESSAGE_TEXTS.editLabel} value={value} rows={3} autoFocus onChange={(e) => setValue(e.target.value)} />
      <div className="chat-edit__buttons">
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel}>
          {TEXTS.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={!value.trim()}>
          {MESSAGE_TEXTS.editSend}
        </button>
      </div>
    </form>
  );
}

function MessageView({ message, isLastAnswer, isLastQuestion, actions }: { message: ShownMessage; isLastAnswer: boolean; isLastQuestion: boolean; actions: MessageActions | undefined }) {
  const mine = message.role === 'user';
  const author = mine ? CHAT_TEXTS.you : (message.model ?? 'ИИ');
  const [editing, setEditing] = useState(false);
  const { copied, copy } = useCopied();
  const id = message.id ?? null;
  const ended = message.status !== 'generating';
  const variants = id !== null && message.variants && message.variants.length > 1 ? message.variants : null;
  return (
    <li className={`chat-msg chat-msg--${message.role}${message.status === 'failed' ? ' chat-msg--failed' : ''}`} id={id === null ? undefined : `chat-msg-${String(id)}`} data-message-id={id ?? undefined}>
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
        {mine && editing && id !== null && actions ? (
          <EditForm
            text={message.text}
            onCancel={() => setEditing(false)}
            onSend={(text) => {
              setEditing(false);
              actions.onEdit(id, text);
            }}
          />
        ) : mine ? (
          <p className="chat-msg__text">{message.text}</p>
        ) : (
          message.text && <AnswerText text={message.text} writing={!ended} />
        )}
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
        {actions && id !== null && ended && !editing && (
          <div className="chat-msg__actions">
            {variants && <VariantSwitch id={id} variants={variants} disabled={actions.busy} onVariant={actions.onVariant} />}
            {!mine && message.text && (
              <button type="button" className="chat-msg__action" onClick={() => copy(message.text)} aria-label={copied ? TEXTS.copied : MESSAGE_TEXTS.copyAnswer}>
                {copied ? TEXTS.copied : MESSAGE_TEXTS.copyAnswer}
              </button>
            )}
            {isLastAnswer && (
              <button type="button" className="chat-msg__action" title={MESSAGE_TEXTS.regenerateHint} disabled={actions.busy} onClick={actions.onRegenerate}>
                {MESSAGE_TEXTS.regenerate}
              </button>
            )}
            {isLastQuestion && (
              <button type="button" className="chat-msg__action" disabled={actions.busy} onClick={() => setEditing(true)}>
                {MESSAGE_TEXTS.edit}
              </button>
            )}
          </div>
        )}
      </article>
    </li>
  );
}

/** A 402: the heading says it (the server's «Недостаточно токенов» would only repeat it); the text says what an answer may cost and what is on the balance. */
export function TooFewWords({
  plansUrl,
  packagesUrl,
  topUp,
  balance,
  price,
  history = null,
  onDismiss,
}: {
  plansUrl: string;
  packagesUrl: string;
  topUp: TopUp;
  balance: number | null;
  price: number | null;
  /** The history's part of `price` when the price is the send's estimate (null: the price of the answer alone). */
  history?: number | null;
  onDismiss: () => void;
}) {
  return (
    <TooFewTokensView wallet="words" topUp={topUp} plansUrl={plansUrl} packagesUrl={packagesUrl} headingLevel={3} onDismiss={onDismiss}>
      {price !== null && (
        <>
          {history === null ? `Ответ этой модели может стоить ${upTo('words', price)}` : `Отправка может стоить ${upTo('words', price)}${history > 0 ? `, из них история чата — ${upTo('words', history)}` : ''}`}
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

/** How near the top (px) the conversation reads its older messages. */
const OLDER_AT = 200;

/**
 * Reads older messages when the user scrolls near the top, and keeps what they were reading in
 * place when those messages are put above it (the scroll position moves by their height).
 */
function useLoadOlder(ref: RefObject<HTMLDivElement | null>, older: OlderState, onLoadOlder: () => void, firstKey: string | undefined) {
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const load = () => {
    const el = ref.current;
    if (!older.hasMore || older.loading) return;
    if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    onLoadOlder();
  };
  useLayoutEffect(() => {
    const el = ref.current;
    const kept = anchor.current;
    if (!el || !kept) return;
    anchor.current = null;
    el.scrollTop = kept.top + (el.scrollHeight - kept.height);
  }, [ref, firstKey]);
  const onScroll = () => {
    const el = ref.current;
    if (el && el.scrollTop < OLDER_AT) load();
  };
  return { load, onScroll };
}

/** The messages of the open chat (or the examples of a new one), kept at the newest while the user reads there; older ones come on scroll up. */
export function ConversationView({
  conversation,
  older,
  onLoadOlder,
  onRetry,
  onExample,
  footer,
  actions,
  focusMessageId = null,
}: {
  conversation: Conversation;
  older: OlderState;
  onLoadOlder: () => void;
  onRetry: () => void;
  onExample: (text: string) => void;
  footer: ReactNode;
  actions?: MessageActions | undefined;
  /** A message to bring into view (opened from the search). */
  focusMessageId?: number | null | undefined;
}) {
  const messages = conversation.status === 'ready' ? conversation.data : [];
  const last = messages.at(-1);
  const lastQuestion = messages.findLast((m) => m.role === 'user');
  useEffect(() => {
    if (focusMessageId === null) return;
    const el = document.getElementById(`chat-msg-${String(focusMessageId)}`);
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'center' });
    el?.classList.add('chat-msg--found');
  }, [focusMessageId, messages.length]);
  const { ref, onScroll } = useStickToBottom(`${String(messages.length)}:${String(last?.text.length ?? 0)}:${conversation.status}`);
  const olderLoader = useLoadOlder(ref, older, onLoadOlder, messages[0]?.key);
  return (
    // Focusable, so the keyboard can scroll the conversation.
    <div
      className="chat-conversation"
      ref={ref}
      onScroll={() => {
        onScroll();
        olderLoader.onScroll();
      }}
      tabIndex={0}
      role="region"
      aria-label="Переписка"
      aria-busy={older.loading || undefined}
    >
      <div className="chat-conversation__inner">
        {conversation.status === 'new' && <EmptyChat onExample={onExample} />}
        {conversation.status === 'loading' && <Skeleton lines={6} />}
        {conversation.status === 'error' && <LoadError message={conversation.message} onRetry={onRetry} />}
        {conversation.status === 'ready' && messages.length === 0 && <EmptyChat onExample={onExample} />}
        {conversation.status === 'ready' && older.error && <LoadError message={older.error} onRetry={olderLoader.load} />}
        {conversation.status === 'ready' && older.hasMore && !older.error && (
          <div className="chat-older">
            <Button variant="ghost" busy={older.loading} onClick={olderLoader.load}>
              {TEXTS.olderMessages}
            </Button>
          </div>
        )}
        {messages.length > 0 && (
          <ol className="chat-messages" aria-label="Сообщения">
            {messages.map((m) => (
              <MessageView key={m.key} message={m} isLastAnswer={m === last && m.role === 'assistant' && lastQuestion !== undefined} isLastQuestion={m === lastQuestion} actions={actions} />
            ))}
          </ol>
        )}
        {footer}
      </div>
    </div>
  );
}
