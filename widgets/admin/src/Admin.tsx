import { lazy, Suspense, useEffect } from 'react';
import { EmptyState } from '@app/kit';
import { routedClick, useLocation } from '@app/kit/routing';
import { adminApi, type AdminApi } from './api.ts';
import { HomeTab } from './HomeTab.tsx';
import { ADMIN_TABS, parseAdminRoute, readListQuery, tabFlags } from './routes.ts';
import { useOverflow } from './ScrollArea.tsx';
import type { TabProps } from './tab-props.ts';
import { UsersTab } from './UsersTab.tsx';

// Each group of tabs is its own chunk, fetched when one of its tabs opens: a visit to one tab
// does not download the other fifteen.
const AiTabs = lazy(() => import('./ai/AiTabs.tsx').then((m) => ({ default: m.AiTabs })));
const BillingTabs = lazy(() => import('./billing/BillingTabs.tsx').then((m) => ({ default: m.BillingTabs })));
const ActivityTabs = lazy(() => import('./activity/ActivityTabs.tsx').then((m) => ({ default: m.ActivityTabs })));
const AuditTab = lazy(() => import('./AuditTab.tsx').then((m) => ({ default: m.AuditTab })));

export interface AdminProps {
  api?: AdminApi;
}

/**
 * The admin panel (seed «Admin»): a tab bar of sixteen tabs, tab1 «Главная» selected at first,
 * each tab's list and single screens routed on the client (/admin/users/42 opened directly shows
 * that user; back and forward move between screens).
 */
export function Admin({ api = adminApi }: AdminProps) {
  const { location, navigate } = useLocation();
  const route = parseAdminRoute(location.pathname);
  const current = route.kind === 'tab' ? route.tab : null;
  const flags = tabFlags(current?.flag ?? 'tab1');
  const [tabsRef, more] = useOverflow<HTMLElement>();
  // On a phone the tab bar scrolls sideways: the current tab is brought into its middle.
  useEffect(() => {
    const bar = tabsRef.current;
    const tab = bar?.querySelector('[aria-current="page"]');
    if (!bar || !tab || bar.scrollWidth <= bar.clientWidth) return;
    const barBox = bar.getBoundingClientRect();
    const tabBox = tab.getBoundingClientRect();
    bar.scrollLeft += tabBox.left - barBox.left - (barBox.width - tabBox.width) / 2;
  }, [tabsRef, current?.flag]);
  return (
    <div className="admin">
      <nav ref={tabsRef} className={`admin-tabs${more.left ? ' is-more-left' : ''}${more.right ? ' is-more-right' : ''}`} aria-label="Разделы админки">
        {ADMIN_TABS.map((t) => (
          <a key={t.flag} href={t.path} className="admin-tabs__tab" data-tab={t.flag} aria-current={flags[t.flag] && current ? 'page' : undefined} onClick={routedClick(navigate, t.path)}>
            {t.label}
          </a>
        ))}
      </nav>
      <div className="admin-content">
        {current && route.kind === 'tab' ? (
          <>
            <h1 className="admin-content__title">{current.label}</h1>
            <Suspense fallback={<div className="admin-content__loading" role="status" aria-busy="true" aria-label="Загрузка раздела" />}>
              <TabContent tab={current} id={route.id} search={location.search} api={api} navigate={navigate} {...(route.section ? { section: route.section } : {})} />
            </Suspense>
          </>
        ) : (
          <EmptyState title="Такого раздела нет">
            <a href="/admin" onClick={routedClick(navigate, '/admin')}>
              На главную админки
            </a>
          </EmptyState>
        )}
      </div>
    </div>
  );
}

function TabContent(props: TabProps) {
  const { tab, id, search, api, navigate } = props;
  switch (tab.flag) {
    case 'tab1':
      return <HomeTab api={api} navigate={navigate} />;
    case 'tab2':
    case 'tab3':
    case 'tab4':
    case 'tab14':
      return <AiTabs {...props} />;
    case 'tab5':
    case 'tab7':
    case 'tab8':
    case 'tab9':
    case 'tab10':
      return <BillingTabs {...props} />;
    case 'tab11':
    case 'tab12':
    case 'tab13':
    case 'tab16':
      return <ActivityTabs {...props} />;
    case 'tab6':
      return <UsersTab api={api} id={id} query={readListQuery(search, 'id')} navigate={navigate} />;
    case 'tab15':
      return <AuditTab api={api} query={readListQuery(search, 'id')} navigate={navigate} />;
  }
}
