/** Money is kept in kopecks; the wire shows rubles. */
export const rubles = (kopecks: number) => kopecks / 100;

/** Rubles from a notification (`"490.00"`, `490`, `"490,5"`) to kopecks; NaN when not a number. */
export function kopecksFrom(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(',', '.')) : Number.NaN;
  return Number.isFinite(n) ? Math.round(n * 100) : Number.NaN;
}

export const DAY_MS = 86_400_000;

/** The same day of the next month (clamped to the month's last day), as CloudPayments' monthly interval. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/** Whole days left until `end`, rounded up; 0 when past. */
export const daysLeft = (end: Date | null, now = new Date()) => (end ? Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS)) : 0);
