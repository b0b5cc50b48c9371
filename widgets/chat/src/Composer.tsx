import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CHAT_LIMITS } from '@app/contracts/browser';
import { Alert, Button, WordsIcon, formatWords, plural, upTo } from '@app/kit';
import type { ModelChoice } from './chat-utils.ts';
import type { ChatViewProps } from './ChatView.tsx';
import { ClipIcon, SendIcon } from './icons.tsx';
import { TEXTS } from './texts.ts';
import { historyLimitText } from './history-cost.ts';
import type { Attachment, ComposerState } from './types.ts';

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

/** What a «слово» is, in plain words (the price's explanation). */
export const WORD_TEXT =
  'Слово — единица оплаты ответов. Модель читает и пишет текст кусочками (токенами: около 3–4 букв), и каждый токен стоит долю слова по цене модели. С каждым сообщением модель заново читает историю чата, поэтому чем длиннее чат, тем дороже следующее сообщение. Списывается то, что модель действительно прочитала и написала; до ответа на балансе придерживается наибольшая сумма.';

/**
 * What sending will cost: «≈ 40–1 070 слов, из них история чата — до 300» (the least with a short
 * answer, the most with the longest, which the balance must cover), or before the estimate is
 * read the price of an answer alone. The explanation of a «слово» is its title and a note for screen readers.
 */
function PriceHint({ composer }: { composer: ComposerState }) {
  if (composer.choices.status !== 'ready') return null;
  const selected = composer.choices.data.find((c) => c.key === composer.choiceKey);
  if (!selected) return null;
  const demo = selected.model.provider === 'Демо' ? ' · демо' : '';
  const e = composer.estimate;
  if (!e) {
    return (
      <span className="chat-model__price" title={WORD_TEXT}>
        {upTo('words', selected.model.max_words)} за ответ{demo}
      </span>
    );
  }
  return (
    <span className="chat-model__price" title={WORD_TEXT}>
      Отправка: {e.min_words === e.max_words ? formatWords(e.max_words) : `${formatWords(e.min_words)}–${formatWords(e.max_words)}`} {plural(e.max_words, ['слово', 'слова', 'слов'])}
      {e.history_words > 0 ? `, из них история чата — до ${formatWords(e.history_words)}` : ''}
      {historyLimitText(e)}
      {demo}
      <span className="visually-hidden">. {WORD_TEXT}</span>
    </span>
  );
}

/** The message field with its attachments, model, price, balance and the send (or stop) button; `extra` under it (the offer of a summary). */
export function Composer({
  composer,
  focusToken,
  onText,
  onChoice,
  onFiles,
  onRemoveAttachment,
  onSend,
  onStop,
  extra,
}: Pick<ChatViewProps, 'composer' | 'focusToken' | 'onText' | 'onChoice' | 'onFiles' | 'onRemoveAttachment' | 'onSend' | 'onStop'> & { extra?: ReactNode }) {
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
      {extra}
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
