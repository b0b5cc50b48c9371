import type { TabProps } from '../tab-props.ts';
import { CategoriesList, CategoryScreen } from './Categories.tsx';
import { ModelScreen, ModelsList } from './Models.tsx';
import { ProductScreen } from './ProductScreen.tsx';
import { ProductsList } from './ProductsList.tsx';
import { ProviderScreen, ProvidersList } from './Providers.tsx';

/**
 * The AI catalogue tabs: 2 «Аи продукты», 3 «Аи категории продуктов», 4 «Аи модели», 14
 * «Провайдеры». Each is a list, a record's screen at `{list}/{id}`, and a new record's at
 * `{list}?new=1` (the list's «Создать»).
 */
export function AiTabs({ tab, id, search, api, navigate }: TabProps) {
  const single = id !== null || new URLSearchParams(search).has('new');
  const list = { api, search, navigate };
  const screen = { api, id, navigate };
  switch (tab.flag) {
    case 'tab2':
      return single ? <ProductScreen {...screen} /> : <ProductsList {...list} />;
    case 'tab3':
      return single ? <CategoryScreen {...screen} /> : <CategoriesList {...list} />;
    case 'tab4':
      return single ? <ModelScreen {...screen} /> : <ModelsList {...list} />;
    default:
      return single ? <ProviderScreen {...screen} /> : <ProvidersList {...list} />;
  }
}
