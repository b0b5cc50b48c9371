import type { AdminAiProduct } from '@app/contracts/admin';
import { PRODUCT_VARIANTS, type ProductVariant } from '@app/contracts/generation';
import { catalogPriceLabel, queryState, useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import type { TabProps } from '../tab-props.ts';
import { CatalogList, isId, useListAddress, type FilterSpec } from './catalog-list.tsx';
import { useCategories } from './options.ts';
import { ActiveBadge, hiddenBecause } from './record.tsx';
import { PRODUCT_SORTS } from './contract.ts';
import { VARIANT_LABELS, VARIANT_SHORT, variantOptions } from './texts.ts';

export const PRODUCTS_PATH = '/admin/ai-products';
type Navigate = TabProps['navigate'];

/** The list's columns; the price is what the catalogue shows users (the server's figure). */
export function productColumns(): Column<AdminAiProduct>[] {
  return [
    {
      key: 'name',
      label: 'Название',
      sortable: true,
      render: (p) => (
        <span className="ai-product-name">
          {p.example_url ? <img className="ai-thumb" src={p.example_url} alt="" loading="lazy" /> : <span className="ai-thumb ai-thumb--none" aria-hidden="true" />}
          {p.name}
        </span>
      ),
    },
    { key: 'active', label: 'Статус', render: (p) => <ActiveBadge active={p.active} hidden={hiddenBecause(p)} /> },
    { key: 'variant', label: 'Вариант', render: (p) => <span className="ai-nowrap" title={VARIANT_LABELS[p.variant]}>{VARIANT_SHORT[p.variant]}</span> },
    { key: 'category', label: 'Категория', render: (p) => p.category },
    { key: 'model', label: 'Модель', render: (p) => <span className="ai-nowrap">{p.model}</span> },
    {
      key: 'price',
      label: 'Цена',
      // The figure users see in the catalogue, worked out by the server the same way.
      render: (p) => <span className="ai-nowrap">{p.price.up_to ? catalogPriceLabel(p.price) : `от ${catalogPriceLabel(p.price)}`}</span>,
    },
    { key: 'sort', label: 'Порядок', sortable: true, numeric: true, render: (p) => p.sort },
    { key: 'id', label: 'ID', sortable: true, numeric: true, render: (p) => p.id },
  ];
}

/** «Аи продукты»: the products by variant and category. */
export function ProductsList({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const categories = useCategories(api);
  const filters: FilterSpec<'variant' | 'category_id'>[] = [
    { name: 'variant', label: 'Вариант', all: 'Все варианты', options: variantOptions, valid: (v) => (PRODUCT_VARIANTS as readonly string[]).includes(v) },
    { name: 'category_id', label: 'Категория', all: 'Все категории', options: (categories.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name })), valid: isId },
  ];
  const address = useListAddress(PRODUCTS_PATH, search, PRODUCT_SORTS, filters, navigate);
  const { variant, category_id } = address.filters;
  const list = useRouteQuery(
    api.aiProducts,
    { query: { ...address.query, ...(variant ? { variant: variant as ProductVariant } : {}), ...(category_id ? { category_id: Number(category_id) } : {}) } },
    { placeholderData: (prev) => prev },
  );
  return (
    <CatalogList
      title="Аи продукты"
      path={PRODUCTS_PATH}
      columns={productColumns()}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      address={address}
      filters={filters}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск по названию"
      empty="Продуктов пока нет"
      createLabel="Создать продукт"
      navigate={navigate}
    />
  );
}
