import { referralLink, type ReferralSummary } from '@app/contracts/promo';
import { Button, Card, LoadError, Skeleton, formatWords, plural, type LoadState } from '@app/kit';
import { WORDS } from './amount-text.ts';
import type { CopyState } from './promo-helpers.ts';

export interface ReferralViewProps {
  state: LoadState<ReferralSummary>;
  /** The site's address the link starts with (the page's own). */
  origin: string;
  copy: CopyState;
  onCopy: (link: string) => void;
  onRetry: () => void;
}

/** «Пригласите друзей»: the user's link, what a friend's first payment earns, and invited, paid and earned. */
export function ReferralView({ state, origin, copy, onCopy, onRetry }: ReferralViewProps) {
  return (
    <Card title="Пригласите друзей" className="referral">
      {state.status === 'loading' && <Skeleton lines={3} />}
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status === 'ready' && <ReferralReady data={state.data} link={referralLink(origin, state.data.code)} copy={copy} onCopy={onCopy} />}
    </Card>
  );
}

function ReferralReady({ data, link, copy, onCopy }: { data: ReferralSummary; link: string; copy: CopyState; onCopy: (link: string) => void }) {
  return (
    <>
      <p className="referral__offer">
        {data.bonus_words > 0
          ? `Друг регистрируется по вашей ссылке и впервые оплачивает тариф или пакет — вы получаете ${formatWords(data.bonus_words)} ${plural(data.bonus_words, WORDS)}. Бонус начисляется один раз за каждого друга и отменяется, если он вернёт оплату.`
          : 'Сейчас бонус за приглашённых не начисляется.'}
      </p>
      <div className="referral__link">
        <label className="field__label" htmlFor="referral-link">
          Ваша ссылка
        </label>
        <div className="referral__row">
          <input id="referral-link" className="field__input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <Button variant="secondary" onClick={() => onCopy(link)}>
            Копировать
          </Button>
        </div>
        <p className="referral__copy" role="status">
          {copy === 'copied' ? 'Ссылка скопирована' : copy === 'failed' ? 'Не удалось скопировать: выделите ссылку и скопируйте её вручную' : ''}
        </p>
      </div>
      <dl className="referral__stats">
        <div>
          <dt>Приглашено</dt>
          <dd>{data.invited}</dd>
        </div>
        <div>
          <dt>Оплатили</dt>
          <dd>{data.paid}</dd>
        </div>
        <div>
          <dt>Заработано</dt>
          <dd>
            {formatWords(data.earned_words)} {plural(data.earned_words, WORDS)}
          </dd>
        </div>
      </dl>
    </>
  );
}
