import { useId } from 'react';
import type { ChatEstimate } from '@app/contracts/browser';
import { Button, upTo } from '@app/kit';
import { isHistoryExpensive } from './history-cost.ts';
import type { SummaryState } from './use-chat-summary.ts';

/** What the chat says about an expensive history and the summary that starts a new chat. */
const SUMMARY_TEXTS = {
  offer: 'Новый чат с кратким содержанием',
  busy: 'Пишем краткое содержание…',
  region: 'Дорогая история чата',
} as const;

/** «История чата уже дороже самого ответа: до 1 200 слов с каждым сообщением.» */
const expensiveText = (e: ChatEstimate) => `История чата уже дороже самого ответа: ${upTo('words', e.history_words)} с каждым сообщением.`;

/** What the summary costs and what it does (the button's explanation). */
const summaryHint = (e: ChatEstimate) =>
  `Модель перескажет этот чат (${upTo('words', e.summary_words)}, спишется как ответ), и новый чат начнётся с этого пересказа: его история будет короткой.`;

export interface SummaryOfferProps {
  /** The estimate of the next send in the open chat. */
  estimate: ChatEstimate | null | undefined;
  state: SummaryState;
  onStart: () => void;
  /** While a message is sent or answered the offer waits. */
  disabled?: boolean;
}

/**
 * Under the composer, once the open chat's history costs as much as an answer: what it costs with
 * each message and «Новый чат с кратким содержанием», which the model writes (charged as an
 * answer) and the new chat starts from. A refusal says why beside the button.
 */
export function SummaryOffer({ estimate, state, onStart, disabled = false }: SummaryOfferProps) {
  const hintId = useId();
  if (!isHistoryExpensive(estimate) && state.phase === 'idle' && state.error === null) return null;
  const error = state.tooFewWords && estimate ? `Не хватает слов на краткое содержание: оно может стоить ${upTo('words', estimate.summary_words)}.` : state.error;
  return (
    <section className="chat-summary-offer" aria-label={SUMMARY_TEXTS.region}>
      {estimate && isHistoryExpensive(estimate) && (
        <p className="chat-summary-offer__text" id={hintId}>
          {expensiveText(estimate)} <span className="chat-summary-offer__hint">{summaryHint(estimate)}</span>
        </p>
      )}
      <Button variant="secondary" className="btn-sm chat-summary-offer__button" busy={state.phase === 'busy'} disabled={disabled || state.phase === 'busy'} aria-describedby={hintId} onClick={onStart}>
        {state.phase === 'busy' ? SUMMARY_TEXTS.busy : SUMMARY_TEXTS.offer}
      </Button>
      {error && (
        <p className="chat-summary-offer__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
