import { ANALYTICS_TIME_ZONE, periodProblem, type Analytics } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../lib/app-error.ts';
import { rubles } from '../billing/money.ts';
import { mediaToWire } from '../wallet/wallet.queries.ts';
import { activeSubscriptions, generationCounts, newSubscriptions, paymentCounts, revenueKopecks, spent, type Period } from './admin-analytics.queries.ts';

const DEFAULT_DAYS = 30;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ANALYTICS_TIME_ZONE }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The period asked for: by default the 30 days up to today (Moscow). */
function periodOf(query: { from?: string | undefined; to?: string | undefined }): Period {
  const to = query.to ?? today();
  const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
  const problem = periodProblem(from, to);
  if (problem) throw fieldError(problem.field, problem.message);
  return { from, to };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Per day of a period: revenue, payments, new and running plans, runs, words and media spent (each one query over the whole period). */
export async function analytics(ctx: AppContext, query: { from?: string | undefined; to?: string | undefined }): Promise<Analytics> {
  const period = periodOf(query);
  const [revenue, payments, fresh, active, generations, words, media] = await Promise.all([
    revenueKopecks(ctx.db, period),
    paymentCounts(ctx.db, period),
    newSubscriptions(ctx.db, period),
    activeSubscriptions(ctx.db, period),
    generationCounts(ctx.db, period),
    spent(ctx.db, period, 'words'),
    spent(ctx.db, period, 'media'),
  ]);
  const days = revenue.map((kopecks, i) => ({
    date: addDays(period.from, i),
    revenue: rubles(kopecks),
    payments: payments[i] ?? 0,
    new_subscriptions: fresh[i] ?? 0,
    active_subscriptions: active[i] ?? 0,
    generations: generations[i] ?? 0,
    words_spent: words[i] ?? 0,
    media_spent: mediaToWire(media[i] ?? 0),
  }));
  return {
    from: period.from,
    to: period.to,
    time_zone: ANALYTICS_TIME_ZONE,
    days,
    totals: {
      revenue: rubles(sum(revenue)),
      payments: sum(payments),
      new_subscriptions: sum(fresh),
      generations: sum(generations),
      words_spent: sum(words),
      media_spent: mediaToWire(sum(media)),
    },
  };
}
