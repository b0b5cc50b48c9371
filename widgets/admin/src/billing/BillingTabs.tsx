import type { TabProps } from '../tab-props.ts';
import { CardsTab } from './CardsTab.tsx';
import { LogTab } from './LogTab.tsx';
import { PaymentsTab } from './PaymentsTab.tsx';
import { PromoCodesTab } from './PromoCodesTab.tsx';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { TariffsTab } from './TariffsTab.tsx';

/** The billing tabs: 5 «Тарифы», 7 «Подписки», 8 «Платежи», 9 «Лог подписок», 10 «Стартовая панель». */
export function BillingTabs({ tab, id, search, api, navigate, section }: TabProps) {
  switch (tab.flag) {
    case 'tab5':
      return section === 'promo' ? <PromoCodesTab api={api} id={id} search={search} navigate={navigate} /> : <TariffsTab api={api} id={id} search={search} navigate={navigate} />;
    case 'tab7':
      return <SubscriptionsTab api={api} search={search} navigate={navigate} />;
    case 'tab8':
      return <PaymentsTab api={api} search={search} navigate={navigate} />;
    case 'tab9':
      return <LogTab api={api} search={search} navigate={navigate} />;
    case 'tab10':
      return <CardsTab api={api} id={id} search={search} navigate={navigate} />;
    default:
      return null;
  }
}
