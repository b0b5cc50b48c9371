import { AdminAiCategoryCreateSchema, AdminAiCategoryUpdateSchema, type AdminAiCategory } from '@app/contracts/admin';
import { queryState, useRouteQuery } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec } from '../Editor.tsx';
import type { TabProps } from '../tab-props.ts';
import { when } from '../texts.ts';
import { CatalogList, useListAddress } from './catalog-list.tsx';
import { CATEGORY_SORTS, type BodyOf } from './contract.ts';
import { ActiveBadge, DeleteAction, RecordFrame, RecordHead, stampsLine, useCatalogChanges, useSave } from './record.tsx';

const PATH = '/admin/ai-categories';
type Navigate = TabProps['navigate'];
type CategoryBody = BodyOf<'createAiCategory'>;

export const CATEGORY_COLUMNS: readonly Column<AdminAiCategory>[] = [
  { key: 'name', label: 'Название', sortable: true, render: (c) => c.name },
  { key: 'active', label: 'Статус', render: (c) => <ActiveBadge active={c.active} /> },
  { key: 'description', label: 'Описание', render: (c) => <span className="ai-clip">{c.description || '—'}</span> },
  { key: 'products', label: 'Продуктов', numeric: true, render: (c) => c.products },
  { key: 'sort', label: 'Порядок', sortable: true, numeric: true, render: (c) => c.sort },
  { key: 'created_at', label: 'Создана', sortable: true, render: (c) => when(c.created_at) },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (c) => c.id },
];

/** «Аи категории продуктов»: the categories, searched and sorted on the server. */
export function CategoriesList({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const address = useListAddress(PATH, search, CATEGORY_SORTS, [], navigate);
  const list = useRouteQuery(api.aiCategories, { query: address.query }, { placeholderData: (prev) => prev });
  return (
    <CatalogList
      title="Аи категории продуктов"
      path={PATH}
      columns={CATEGORY_COLUMNS}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      address={address}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск по названию"
      empty="Категорий пока нет"
      createLabel="Создать категорию"
      navigate={navigate}
    />
  );
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
  { name: 'description', label: 'Описание', kind: 'textarea', maxLength: 2000, hint: 'Показывается над продуктами категории в каталоге' },
  { name: 'sort', label: 'Порядок', kind: 'number', required: true, hint: 'Меньше — выше в каталоге' },
  { name: 'active', label: 'Показывать в каталоге', kind: 'checkbox' },
];

/** A category (/admin/ai-categories/{id}), or a new one (?new=1). */
export function CategoryScreen({ api, id, navigate }: { api: AdminApi; id: number | null; navigate: Navigate }) {
  const record = useRouteQuery(api.aiCategory, { params: { id: id ?? 0 } }, { enabled: id !== null });
  return (
    <RecordFrame back={{ href: PATH, label: 'Все категории' }} navigate={navigate} record={id === null ? null : record}>
      {(category) => <CategoryView key={category?.id ?? 'new'} api={api} category={category} navigate={navigate} />}
    </RecordFrame>
  );
}

function CategoryView({ api, category, navigate }: { api: AdminApi; category: AdminAiCategory | null; navigate: Navigate }) {
  const changes = useCatalogChanges(api.aiCategory.route, PATH, navigate);
  const { done, save } = useSave<AdminAiCategory, CategoryBody>({
    record: category,
    create: (body) => api.createAiCategory({ body }),
    update: (id, body) => api.updateAiCategory({ params: { id }, body }),
    createdMessage: (c) => `Категория «${c.name}» создана`,
    changes,
  });
  const productsHref = category ? `/admin/ai-products?category_id=${String(category.id)}` : '';
  return (
    <>
      {category ? (
        <RecordHead
          title={category.name}
          meta={stampsLine(category)}
          active={category.active}
          badges={
            <a className="admin-badge" href={productsHref} onClick={routedClick(navigate, productsHref)}>
              Продуктов: {category.products}
            </a>
          }
          actions={
            <DeleteAction
              what={`категорию «${category.name}»`}
              note={category.products > 0 ? `В ней продукты (${String(category.products)}): пока они есть, удалить её нельзя — перенесите их или выключите категорию.` : undefined}
              onDelete={() => api.deleteAiCategory({ params: { id: category.id } })}
              onDeleted={() => changes.deleted(`Категория «${category.name}» удалена`)}
            />
          }
        />
      ) : (
        <h2 className="admin-screen__title">Новая категория</h2>
      )}
      <Editor
        label={category ? 'Категория' : 'Новая категория'}
        fields={FIELDS}
        initial={category ?? { name: '', description: '', sort: 0, active: true }}
        submitLabel={category ? 'Сохранить' : 'Создать'}
        done={done}
        schema={category ? AdminAiCategoryUpdateSchema : AdminAiCategoryCreateSchema}
        onSubmit={(body) => save(body as CategoryBody)}
      />
    </>
  );
}
