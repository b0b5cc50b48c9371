import type { WidgetProps } from '@app/contracts/browser';
import { EmptyState } from '@app/kit';
import { productsApi, type ProductsApi } from './api.ts';
import { Catalog } from './Catalog.tsx';
import { ProductScreen } from './ProductScreen.tsx';
import { useRoute } from './routes.ts';
import { TEXTS } from './texts.ts';

export interface AiProductsProps extends WidgetProps<'ai-products'> {
  api?: ProductsApi;
  /** How often a run is read again when its events cannot be followed. */
  pollMs?: number;
}

/**
 * The generation catalogue (one widget, its own routes): the list at /ai-products (`?type=video`
 * for video) and each product's screen at /ai-products/{variant}/{id}, switched without reloading
 * the page; the browser's back and forward move between them.
 */
export function AiProducts({ plansUrl, packagesUrl, historyUrl, videoHistoryUrl, api = productsApi, pollMs }: AiProductsProps) {
  const { route, navigate } = useRoute();
  if (route.kind === 'list') return <Catalog type={route.type} api={api} navigate={navigate} historyUrl={route.type === 'video' ? videoHistoryUrl : historyUrl} />;
  if (route.kind === 'product') return <ProductScreen key={route.id} id={route.id} variant={route.variant} api={api} navigate={navigate} links={{ plansUrl, packagesUrl, historyUrl, videoHistoryUrl }} pollMs={pollMs} />;
  return (
    <EmptyState title={TEXTS.notFound}>
      <a href="/ai-products">{TEXTS.back}</a>
    </EmptyState>
  );
}
