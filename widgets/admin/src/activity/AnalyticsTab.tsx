import { useId, useState, type SyntheticEvent } from 'react';
import { daysBetween, periodProblem, type Analytics, type AnalyticsDay } from '@app/contracts/admin';
import { ApiError, Button, EmptyState, LoadError, Skeleton, failureMessage, formatMedia, formatRub, formatWords, plural, useRouteQuery } from '@app/kit';
import type { AdminApi } from '../api.ts';
import { BarChart, dayLabel } from './BarChart.tsx';
import { withParams } from './address.ts';
import { addDays, analyticsToday } from './days.ts';
import { CsvButtons } from '../billing/CsvExport.tsx';

const PATH = '/admin/analytics';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The quick periods: the last N days up to today. */
export const QUICK_RANGES = [7, 30, 90] as const;

export { addDays, analyticsToday };

interface Period {
  from: string;
  to: string;
}

const dateParam = (params: URLSearchParams, name: string) => {
  const value = params.get(name) ?? '';
  return DATE.test(value) ? value : null;
};

const count = (n: number) => formatWords(n);

/** The figures drawn per day, in order: title, the day's value, its format. */
const SERIES: readonly { key: keyof Omit<AnalyticsDay, 'date'>; title: string; format: (n: number) => string }[] = [
  { key: 'revenue', title: 'Выручка за вычетом возвратов', format: formatRub },
  { key: 'payments', title: 'Платежи', format: count },
  { key: 'new_subscriptions', title: 'Новые подписки', format: count },
  { key: 'active_subscriptions', title: 'Активные подписки на конец дня', format: count },
  { key: 'generations', title: 'Генерации', format: count },
  { key: 'words_spent', title: 'Потрачено слов', format: count },
  { key: 'media_spent', title: 'Потрачено медиа токенов', format: formatMedia },
];

/**
 * «Аналитика» (/admin/analytics): a period of Moscow days (`?from=&to=` in the address; by default
 * the server's 30 days up to today), its totals and a chart per figure.
 */
export function AnalyticsTab({ api, search, navigate, today = analyticsToday() }: { api: AdminApi; search: string; navigate: (href: string, options?: { replace?: boolean }) => void; today?: string }) {
  const params = new URLSearchParams(search);
  const from = dateParam(params, 'from');
  const to = dateParam(params, 'to');
  const problem = from && to ? periodProblem(from, to) : null;
  const analytics = useRouteQuery(api.analytics, { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } }, { placeholderData: (prev) => prev, enabled: !problem });
  const fresh = analytics.data && !analytics.isPlaceholderData ? analytics.data : null;
  const period: Period | null = from && to ? { from, to } : fresh ? { from: fresh.from, to: fresh.to } : null;
  const show = (next: Period) => navigate(withParams(`${PATH}${search}`, { from: next.from, to: next.to }), { replace: true });
  const refused = analytics.error instanceof ApiError && (analytics.error.fields.from ?? analytics.error.fields.to) ? analytics.error.fields : null;
  const serverErrors = { from: refused?.from?.[0], to: refused?.to?.[0] };
  const errors = problem ? { ...serverErrors, [problem.field]: problem.message } : serverErrors;
  return (
    <div className="admin-analytics">
      <PeriodForm key={period ? `${period.from}:${period.to}` : 'none'} period={period} today={today} errors={errors} onShow={show} />
      {problem || refused ? null : analytics.isError ? (
        <LoadError message={failureMessage(analytics.error)} onRetry={() => void analytics.refetch()} />
      ) : fresh ? (
        <AnalyticsView data={fresh} api={api} />
      ) : (
        <div className="admin-analytics__loading" aria-busy="true">
          <Skeleton lines={3} />
          <Skeleton lines={6} />
        </div>
      )}
    </div>
  );
}

/** The period: two dates and quick ranges; checked here with the API's rules before it is asked. */
function PeriodForm({ period, today, errors, onShow }: { period: Period | null; today: string; errors: Partial<Record<keyof Period, string | undefined>>; onShow: (p: Period) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Period>(period ?? { from: '', to: '' });
  const [found, setFound] = useState<Partial<Record<keyof Period, string>>>({});
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const missing = Object.fromEntries((['from', 'to'] as const).filter((k) => !DATE.test(draft[k])).map((k) => [k, 'Укажите дату']));
    const problem = Object.keys(missing).length ? null : periodProblem(draft.from, draft.to);
    const next = problem ? { [problem.field]: problem.message } : missing;
    setFound(next);
    if (!Object.keys(next).length) onShow(draft);
  };
  const shown = { ...errors, ...found };
  const field = (name: keyof Period, label: string) => {
    const error = shown[name];
    return (
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor={`${id}-${name}`}>
          {label}
        </label>
        <input
          id={`${id}-${name}`}
          className="field__input"
          type="date"
          min="2000-01-01"
          max={today}
          value={draft[name]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${name}-error` : undefined}
          onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
        />
        {error && (
          <p className="field__errors" id={`${id}-${name}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };
  return (
    <form className="card admin-period" aria-label="Период" noValidate onSubmit={submit}>
      <div className="admin-period__quick" role="group" aria-label="Быстрый выбор периода">
        {QUICK_RANGES.map((n) => {
          const range = { from: addDays(today, 1 - n), to: today };
          const pressed = period?.from === range.from && period.to === range.to;
          return (
            <Button key={n} variant={pressed ? 'primary' : 'secondary'} aria-pressed={pressed} onClick={() => onShow(range)}>
              {n} {plural(n, ['день', 'дня', 'дней'])}
            </Button>
          );
        })}
      </div>
      <div className="admin-period__dates">
        {field('from', 'С')}
        {field('to', 'По')}
        <Button type="submit" variant="secondary">
          Показать
        </Button>
      </div>
    </form>
  );
}

const TOTALS: readonly { label: string; value: (a: Analytics) => string }[] = [
  { label: 'Выручка за вычетом возвратов', value: (a) => formatRub(a.totals.revenue) },
  { label: 'Платежей', value: (a) => count(a.totals.payments) },
  { label: 'Новых подписок', value: (a) => count(a.totals.new_subscriptions) },
  { label: 'Активных подписок на конец периода', value: (a) => count(a.days[a.days.length - 1]?.active_subscriptions ?? 0) },
  { label: 'Генераций', value: (a) => count(a.totals.generations) },
  { label: 'Потрачено слов', value: (a) => count(a.totals.words_spent) },
  { label: 'Потрачено медиа токенов', value: (a) => formatMedia(a.totals.media_spent) },
];

/** The period's totals (with its CSV exports, given the calls) and a chart per figure. */
export function AnalyticsView({ data, api }: { data: Analytics; api?: AdminApi }) {
  const days = daysBetween(data.from, data.to);
  const quiet = Object.values(data.totals).every((v) => v === 0) && data.days.every((d) => d.active_subscriptions === 0);
  return (
    <>
      <section className="card admin-totals" aria-label="Итоги за период">
        <h2 className="admin-totals__title">
          {dayLabel(data.from, true)} — {dayLabel(data.to, true)}
          <span className="admin-muted">
            {days} {plural(days, ['день', 'дня', 'дней'])}, дни по московскому времени
          </span>
        </h2>
        <dl className="admin-totals__list">
          {TOTALS.map((t) => (
            <div key={t.label}>
              <dt>{t.label}</dt>
              <dd>{t.value(data)}</dd>
            </div>
          ))}
        </dl>
        {api && (
          <div className="admin-export admin-export--inline" role="group" aria-label="Выгрузка периода в CSV">
            <span className="admin-muted">Выгрузить этот период:</span>
            <CsvButtons api={api} period={{ from: data.from, to: data.to }} kinds={['payments', 'ledger']} />
          </div>
        )}
      </section>
      {quiet && <EmptyState title="За этот период ничего не произошло: ни платежей, ни подписок, ни генераций" />}
      <div className="admin-charts">
        {SERIES.map((s) => {
          const last = data.days[data.days.length - 1];
          const summary = s.key === 'active_subscriptions' ? `на конец периода: ${s.format(last?.active_subscriptions ?? 0)}` : `за период: ${s.format(data.totals[s.key])}`;
          return <BarChart key={s.key} title={s.title} points={data.days.map((d) => ({ date: d.date, value: d[s.key] }))} format={s.format} summary={summary} />;
        })}
      </div>
    </>
  );
}
