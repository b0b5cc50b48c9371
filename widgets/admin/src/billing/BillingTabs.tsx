import { EmptyState } from '@app/kit';
import type { TabProps } from '../tab-props.ts';

/** The billing tabs: 5 «Тарифы», 7 «Подписки», 8 «Платежи», 9 «Лог подписок», 10 «Стартовая панель». */
export function BillingTabs(_props: TabProps) {
  return (
    <EmptyState title="Раздел ещё не готов">
      <p>Экран этого раздела появится в одном из следующих обновлений.</p>
    </EmptyState>
  );
}
