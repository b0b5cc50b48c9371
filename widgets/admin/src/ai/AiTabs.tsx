import { EmptyState } from '@app/kit';
import type { TabProps } from '../tab-props.ts';

/** The AI catalogue tabs: 2 «Аи продукты», 3 «Аи категории продуктов», 4 «Аи модели», 14 «Провайдеры». */
export function AiTabs(_props: TabProps) {
  return (
    <EmptyState title="Раздел ещё не готов">
      <p>Экран этого раздела появится в одном из следующих обновлений.</p>
    </EmptyState>
  );
}
