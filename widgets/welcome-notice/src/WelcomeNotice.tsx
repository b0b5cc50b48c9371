import { useId, useState } from 'react';
import { accountEndpoints, type User, type WelcomeState } from '@app/contracts/browser';
import { Alert, Button, MediaIcon, WordsIcon, failureMessage, formatMedia, formatWords, plural, routeKey, useKitQueryClient, useRouteMutation, useRouteQuery } from '@app/kit';
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
 * Welcome notice (seed §4): step 1 subscribe prompt, step 2 thanks (the page's user query takes
 * the new balances, so the dashboard beside it shows them at once); closing notifies the server
 * (GET /api/new/nt_close) and hides it.
 */
export function WelcomeNotice({ api = welcomeApi }: { api?: WelcomeApi }) {
  const client = useKitQueryClient();
  const state = useRouteQuery(api.state);
  const [closed, setClosed] = useState(false);
  const check = useRouteMutation(api.check, {
    onSuccess: (result) => client.setQueryData<User>(routeKey(accountEndpoints.user, {}), (user) => user && { ...user, balances: result.balances }),
  });
  const close = useRouteMutation(api.close, {
    onError: (err) => console.warn('Не удалось закрыть приветствие на сервере', err),
  });

  if (!state.data?.visible || closed) return null;

  const onClose = () => {
    setClosed(true);
    close.mutate({});
  };

  return (
    <WelcomeNoticeView
      state={state.data}
      step={check.isSuccess || state.data.claimed ? 'thanks' : 'subscribe'}
      busy={check.isPending}
      error={check.isError ? failureMessage(check.error) : null}
      onCheck={() => check.mutate({})}
      onClose={onClose}
    />
  );
}
