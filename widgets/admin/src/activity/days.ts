import { ANALYTICS_TIME_ZONE } from '@app/contracts/admin';

/** Today as the analytics and the CSV exports count days (Moscow). */
export const analyticsToday = (now = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: ANALYTICS_TIME_ZONE }).format(now);
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
