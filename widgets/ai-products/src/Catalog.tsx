import type { CatalogProduct } from '@app/contracts/generation';
import { EmptyState, LoadError, failureMessage, useRouteQuery } from '@app/kit';
import type { ProductsApi } from './api.ts';
import { listHref, productHref, routedClick, type CatalogType } from './routes.ts';
import { TEXTS, priceLabel } from './texts.ts';

const FILTERS: { type: CatalogType; label: string }[] = [
  { type: null, label: TEXTS.all },
  { type: 'image', label: TEXTS.images },
  { type: 'video', label: TEXTS.videos },
  { type: 'text', label: TEXTS.texts },
];

const VARIANT_BADGES: Record<CatalogProduct['variant'], string> = {
  img: 'Текст → картинка',
  img_2: 'По образцу',
  img_3: 'Шаблон',
  img_4: 'Стиль',
  mask: 'Маска',
  text_1: 'Текст',
  video: 'Видео',
};

export interface CatalogProps {
  type: CatalogType;
  api: ProductsApi;
  navigate: (href: string) => void;
  historyUrl: string;
}

/** The list at /ai-products: a filter (all, images, video, texts) and the categories with their products. */
export function Catalog({ type, api, navigate, historyUrl }: CatalogProps) {
  const list = useRouteQuery(api.products, { query: type ? { type } : {} });
  return (
    <div className="gen-catalog">
      <header className="gen-catalog__head">
        <div>
          <h1>{TEXTS.title}</h1>
          <p className="gen-catalog__lead">{TEXTS.lead}</p>
        </div>
        <a className="btn btn-secondary" href={historyUrl}>
          {TEXTS.history}
        </a>
      </header>
      <nav className="gen-filter" aria-label="Разделы каталога">
        {FILTERS.map((f) => (
          <a key={f.label} className="gen-filter__item" href={listHref(f.type)} aria-current={f.type === type ? 'page' : undefined} onClick={routedClick(navigate, listHref(f.type))}>
            {f.label}
          </a>
        ))}
      </nav>
      {list.isPending && <CatalogSkeleton />}
      {list.isError && <LoadError message={failureMessage(list.error)} onRetry={() => void list.refetch()} />}
      {list.data && list.data.categories.every((c) => c.products.length === 0) && (
        <EmptyState title={TEXTS.empty}>
          <p>{TEXTS.emptyHint}</p>
        </EmptyState>
      )}
      {list.data?.categories
        .filter((c) => c.products.length > 0)
        .map((category) => (
          <section key={category.id} className="gen-category" aria-labelledby={`gen-category-${String(category.id)}`}>
            <h2 id={`gen-category-${String(category.id)}`}>{category.name}</h2>
            {category.description && <p className="gen-category__lead">{category.description}</p>}
            <ul className="gen-grid">
              {category.products.map((product) => (
                <li key={product.id}>
                  <ProductCard product={product} navigate={navigate} />
                </li>
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}

function ProductCard({ product, navigate }: { product: CatalogProduct; navigate: (href: string) => void }) {
  const href = productHref(product);
  return (
    <a className="gen-card" href={href} onClick={routedClick(navigate, href)}>
      <div className="gen-card__media">
        {product.example_url ? <img src={product.example_url} alt="" loading="lazy" /> : <span aria-hidden="true">✦</span>}
        <span className="gen-card__badge">{VARIANT_BADGES[product.variant]}</span>
      </div>
      <div className="gen-card__body">
        <h3 className="gen-card__title">{product.name}</h3>
        <p className="gen-card__text">{product.description}</p>
        <p className="gen-card__foot">
          <span className="gen-card__price">{product.price.up_to ? priceLabel(product.price) : `от ${priceLabel(product.price)}`}</span>
          <span className="gen-card__model">
            {product.model}
            {product.provider === TEXTS.demo && ` · ${TEXTS.demo}`}
          </span>
        </p>
      </div>
    </a>
  );
}

function CatalogSkeleton() {
  return (
    <ul className="gen-grid" aria-busy="true" aria-label="Загрузка">
      {[0, 1, 2, 3].map((i) => (
        <li key={i}>
          <div className="gen-card gen-card--skeleton">
            <div className="gen-card__media" />
            <div className="gen-card__body">
              <span className="skeleton__line" />
              <span className="skeleton__line" />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
