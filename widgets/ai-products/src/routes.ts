import { routedClick, useLocation } from '@app/kit/routing';
import { PRODUCT_VARIANTS, type ProductVariant } from '@app/contracts/generation';

/** The list's filter: `?type=video|image|text`, or every product. */
export type CatalogType = 'video' | 'image' | 'text' | null;

/** Where the widget is: the list (with its filter) or a product's screen. */
export type ProductsRoute = { kind: 'list'; type: CatalogType } | { kind: 'product'; variant: ProductVariant; id: number } | { kind: 'unknown' };

const TYPES = ['video', 'image', 'text'] as const;
const isVariant = (v: string): v is ProductVariant => (PRODUCT_VARIANTS as readonly string[]).includes(v);

/** Reads the widget's route from an address: `/ai-products(?type=…)` or `/ai-products/{variant}/{id}`. */
export function parseRoute(pathname: string, search: string): ProductsRoute {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/ai-products') {
    const type = new URLSearchParams(search).get('type');
    return { kind: 'list', type: TYPES.find((t) => t === type) ?? null };
  }
  const match = /^\/ai-products\/([a-z0-9_]+)\/(\d{1,12})$/.exec(path);
  if (match?.[1] && match[2] && isVariant(match[1]) && Number(match[2]) > 0) return { kind: 'product', variant: match[1], id: Number(match[2]) };
  return { kind: 'unknown' };
}

export const listHref = (type: CatalogType) => (type ? `/ai-products?type=${type}` : '/ai-products');
export const productHref = (p: { variant: ProductVariant; id: number }) => `/ai-products/${p.variant}/${String(p.id)}`;

/** The route of the page's address, kept in step with the browser's back and forward. */
export function useRoute(): { route: ProductsRoute; navigate: (href: string, options?: { replace?: boolean }) => void } {
  const { location, navigate } = useLocation();
  return { route: parseRoute(location.pathname, location.search), navigate };
}

export { routedClick };
