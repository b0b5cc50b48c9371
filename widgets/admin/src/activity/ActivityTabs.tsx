import { EmptyState } from '@app/kit';
import type { TabProps } from '../tab-props.ts';

/** The activity and settings tabs: 11 «История генерации», 12 «Чат», 13 «Аналитика», 16 «Настройки». */
export function ActivityTabs(_props: TabProps) {
  return (
    <EmptyState title="Раздел ещё не готов">
      <p>Экран этого раздела появится в одном из следующих обновлений.</p>
    </EmptyState>
  );
}
