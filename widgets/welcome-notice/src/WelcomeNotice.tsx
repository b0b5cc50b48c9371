import { useCallback, useId, useState } from 'react';
import type { WelcomeState } from '@app/contracts';
import { Alert, Button, MediaIcon, WordsIcon, announceBalances, failureMessage, formatMedia, formatWords, plural, useLoad } from '@app/kit';
import { welcomeApi, type WelcomeApi } from './api.ts';

export type WelcomeStep = 'subscribe' | 'thanks';

export interface WelcomeNoticeViewProps {
  state: WelcomeState;
  step: WelcomeStep;
  busy: boolean;
  error: string | null;
  onCheck: () => void;
  onClose: () => void;
}

/** The gift (seed §1: 10000 words and 3 media tokens), words whole and media tokens with one decimal. */
export function Gift({ gift }: { gift: WelcomeState['gift'] }) {
  return (
    <span className="welcome__gift">
      <span className="token-amount">
        <WordsIcon />
        {formatWords(gift.words)} {plural(gift.words, ['слово', 'слова', 'слов'])}
      </span>{' '}
      и{' '}
      <span className="token-amount">
        <MediaIcon />
        {formatMedia(gift.media)} медиа токена
      </span>
    </span>
  );
}

/** The welcome notice, every state driven by props: step 1 asks to join the channel, step 2 thanks. */
export function WelcomeNoticeView({ state, step, busy, error, onCheck, onClose }: WelcomeNoticeViewProps) {
  const titleId = useId();
  return (
    <section className="card welcome" aria-labelledby={titleId}>
      <button type="button" className="welcome__close" aria-label="Закрыть уведомление" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
      {step === 'subscribe' ? (
        <>
          <p className="welcome__eyebrow">Подарок новым пользователям</p>
          <h2 className="welcome__title" id={titleId}>
            <Gift gift={state.gift} /> за подписку на наш канал
          </h2>
          <p className="welcome__lead">Подпишитесь на Telegram-канал с новостями сервиса, и мы бесплатно начислим подарок на ваш баланс.</p>
          {state.sandbox && <Alert tone="warning">Тестовый режим: подписка проверяется в локальной песочнице, а не в Telegram.</Alert>}
          <ol className="welcome__steps">
            <li>
              Откройте нашего бота в Telegram: он свяжет ваш аккаунт и пришлёт ссылку на канал.
              {state.linked && <span className="welcome__linked"> Telegram уже привязан.</span>}
            </li>
            <li>
              Подпишитесь на{' '}
              <a href={state.channel_url} target="_blank" rel="noopener noreferrer">
                наш канал
              </a>
              .
            </li>
            <li>Вернитесь сюда и нажмите «Я подписался».</li>
          </ol>
          {error && <Alert>{error}</Alert>}
          <div className="welcome__actions">
            <a className="btn btn-secondary" href={state.bot_url} target="_blank" rel="noopener noreferrer">
              Открыть бота в Telegram
            </a>
            <Button busy={busy} onClick={onCheck}>
              Я подписался
            </Button>
          </div>
        </>
      ) : (
        <>
          <h2 className="welcome__title" id={titleId}>
            Спасибо за подписку!
          </h2>
          <p className="welcome__lead">
            Подарок начислен на ваш баланс: <Gift gift={state.gift} />. Приятной работы с нейросетями!
          </p>
          <div className="welcome__actions">
            <Button variant="secondary" onClick={onClose}>
              Закрыть
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Welcome notice (seed §4): step 1 subscribe prompt, step 2 thanks (the new balances are
 * announced to the page); closing notifies the server (GET /api/new/nt_close) and hides it.
 */
export function WelcomeNotice({ api = welcomeApi }: { api?: WelcomeApi }) {
  const load = useCallback(() => api.state(), [api]);
  const { state } = useLoad(load);
  const [claimed, setClaimed] = useState(false);
  const [closed, setClosed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (state.status !== 'ready' || !state.data.visible || closed) return null;

  const onCheck = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.check();
      setClaimed(true);
      // The balance shown beside the notice (the dashboard widget) takes the gift at once.
      announceBalances(result.balances);
    } catch (err) {
      setError(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const onClose = () => {
    setClosed(true);
    api.close().catch((err: unknown) => {
      console.warn('Не удалось закрыть приветствие на сервере', err);
    });
  };

  return <WelcomeNoticeView state={state.data} step={claimed || state.data.claimed ? 'thanks' : 'subscribe'} busy={busy} error={error} onCheck={() => void onCheck()} onClose={onClose} />;
}
