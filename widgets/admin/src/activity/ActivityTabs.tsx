import type { TabProps } from '../tab-props.ts';
import { AnalyticsTab } from './AnalyticsTab.tsx';
import { ChatsTab } from './ChatsTab.tsx';
import { GenerationsTab } from './GenerationsTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';

/** The activity and settings tabs: 11 «История генераций», 12 «Чат», 13 «Аналитика», 16 «Настройки». */
export function ActivityTabs({ tab, search, api, navigate }: TabProps) {
  switch (tab.flag) {
    case 'tab11':
      return <GenerationsTab api={api} search={search} navigate={navigate} />;
    case 'tab12':
      return <ChatsTab api={api} search={search} navigate={navigate} />;
    case 'tab13':
      return <AnalyticsTab api={api} search={search} navigate={navigate} />;
    default:
      return <SettingsTab api={api} />;
  }
}
