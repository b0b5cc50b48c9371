import type { AdminApi } from './api.ts';
import type { AdminTab } from './routes.ts';

/** What every tab's screen gets from the shell: its tab, the record's id on a single route, the address's query, the calls and client navigation. */
export interface TabProps {
  tab: AdminTab;
  id: number | null;
  /** A section of the tab with its own routes (`promo`: «Тарифы» › «Промокоды»). */
  section?: 'promo';
  search: string;
  api: AdminApi;
  navigate: (href: string, options?: { replace?: boolean }) => void;
}
