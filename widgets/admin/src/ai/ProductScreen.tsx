import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { AdminAiProductCreateSchema, AdminAiProductUpdateSchema, PRODUCT_EXAMPLE_MAX_BYTES, VARIANT_MODEL_KIND, type AdminAiCategory, type AdminAiModel, type AdminAiProduct } from '@app/contracts/admin';
import { VARIANT_INPUTS, type ProductVariant } from '@app/contracts/generation';
import { Alert, Button, failureMessage, useRouteQuery } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import type { AdminApi } from '../api.ts';
import { useActionMessage, useLastAction } from '../last-action.tsx';
import { Editor, type FieldSpec, type Values } from '../Editor.tsx';
import type { TabProps } from '../tab-props.ts';
import type { BodyOf } from './contract.ts';
import { useCategories, useModels } from './options.ts';
import { DeleteAction, RecordFrame, RecordHead, Watch, hiddenBecause, liftFieldError, stampsLine, useCatalogChanges, useSave } from './record.tsx';
import { TemplateFields, checkFieldRows, fromFieldRows, toFieldRows, type FieldRow } from './TemplateFields.tsx';
import { VARIANT_LABELS, kindLabel, modelRates, paramPrice, variantOptions } from './texts.ts';

const PATH = '/admin/ai-products';
type Navigate = TabProps['navigate'];

type ProductBody = BodyOf<'createAiProduct'>;

/** One product (/admin/ai-products/{id}), or a new one (?new=1): its editor, template fields, prices and example image. */
export function ProductScreen({ api, id, navigate }: { api: AdminApi; id: number | null; navigate: Navigate }) {
  const record = useRouteQuery(api.aiProduct, { params: { id: id ?? 0 } }, { enabled: id !== null });
  const categories = useCategories(api);
  const models = useModels(api);
  return (
    <RecordFrame back={{ href: PATH, label: 'Все продукты' }} navigate={navigate} record={id === null ? null : record} waitFor={[categories, models]}>
      {(product) => <ProductView key={product?.id ?? 'new'} api={api} product={product} categories={categories.data?.data ?? []} models={models.data?.data ?? []} navigate={navigate} />}
    </RecordFrame>
  );
}

const modelOption = (m: AdminAiModel) => ({ value: String(m.id), label: `${m.name} · ${m.connection}${m.active ? '' : ' — выключена'}` });

function productFields(variant: ProductVariant, modelId: string, categories: readonly AdminAiCategory[], models: readonly AdminAiModel[]): FieldSpec[] {
  const kind = VARIANT_MODEL_KIND[variant];
  const suitable = models.filter((m) => m.kind === kind);
  const current = models.find((m) => String(m.id) === modelId);
  const options = suitable.map(modelOption);
  // The chosen model stays listed (and says why it does not fit) until another is picked.
  if (current && current.kind !== kind) options.unshift({ value: modelId, label: `${modelOption(current).label} — тип «${kindLabel(current.kind)}», а нужен «${kindLabel(kind)}»` });
  const takesFields = VARIANT_INPUTS[variant].fields;
  return [
    { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
    { name: 'variant', label: 'Вариант', kind: 'select', required: true, options: variantOptions, hint: 'Определяет экран продукта и тип модели' },
    { name: 'category_id', label: 'Категория', kind: 'select', numeric: true, required: true, options: categories.map((c) => ({ value: String(c.id), label: `${c.name}${c.active ? '' : ' — выключена'}` })), hint: categories.length ? undefined : 'Категорий нет: сначала создайте категорию' },
    { name: 'model_id', label: 'Модель', kind: 'select', numeric: true, required: true, options, hint: suitable.length ? `Модели типа «${kindLabel(kind)}»` : `Нет моделей типа «${kindLabel(kind)}»: сначала создайте модель` },
    { name: 'description', label: 'Описание', kind: 'textarea', maxLength: 2000, hint: 'Показывается в карточке каталога и на экране продукта' },
    {
      name: 'prompt_template',
      label: 'Шаблон запроса',
      kind: 'textarea',
      required: takesFields,
      maxLength: 5000,
      placeholder: takesFields ? 'Напиши пост на тему «{topic}». Тон: {tone}.' : undefined,
      hint: takesFields ? 'Поля шаблона подставляются вместо {имя}: каждое {имя} — поле, каждое поле — в шаблоне' : 'Необязательно: добавляется перед запросом пользователя',
    },
    { name: 'sort', label: 'Порядок', kind: 'number', required: true, hint: 'Меньше — выше в категории' },
    { name: 'active', label: 'Показывать в каталоге', kind: 'checkbox' },
  ];
}

function ProductView({ api, product, categories, models, navigate }: { api: AdminApi; product: AdminAiProduct | null; categories: readonly AdminAiCategory[]; models: readonly AdminAiModel[]; navigate: Navigate }) {
  const changes = useCatalogChanges(api.aiProduct.route, PATH, navigate);
  const [initial] = useState<Values>(() => {
    if (product) {
      // What the server works out (the catalogue's price, whether users see it) is not a field of the form.
      const { price: _price, hidden_because: _hidden, connection: _connection, ...fields } = product;
      return { ...fields, category_id: String(product.category_id), model_id: String(product.model_id), fields: null };
    }
    const model = models.find((m) => m.kind === VARIANT_MODEL_KIND.img);
    return { name: '', variant: 'img', category_id: categories[0] ? String(categories[0].id) : '', model_id: model ? String(model.id) : '', description: '', prompt_template: '', sort: 0, active: true };
  });
  const [variant, setVariant] = useState(String(initial.variant) as ProductVariant);
  const [modelId, setModelId] = useState(String(initial.model_id));
  const [rows, setFieldRows] = useState<FieldRow[]>(() => toFieldRows(product?.fields ?? []));
  const actions = useLastAction();
  // The template's fields are part of the form: editing them is a change of the form too.
  const setRows = (next: FieldRow[]) => {
    setFieldRows(next);
    actions.begin();
  };
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const { done, save } = useSave<AdminAiProduct, ProductBody>({
    record: product,
    create: (body) => api.createAiProduct({ body }),
    update: (id, body) => api.updateAiProduct({ params: { id }, body }),
    createdMessage: (p) => `Продукт «${p.name}» создан. Теперь можно загрузить пример`,
    changes,
  });
  const takesFields = VARIANT_INPUTS[variant].fields;
  const rowErrors = takesFields ? checkFieldRows(rows) : {};
  const submit = async (body: Record<string, unknown>) => {
    setServerErrors([]);
    try {
      await save(body as ProductBody);
    } catch (err) {
      throw liftFieldError(err, 'fields', setServerErrors);
    }
  };
  const precheck = () => {
    setChecked(true);
    return Object.keys(rowErrors).length ? 'Исправьте поля шаблона: ошибки отмечены в списке' : null;
  };
  const model = models.find((m) => String(m.id) === modelId);
  return (
    <>
      {product ? (
        <RecordHead
          title={product.name}
          meta={stampsLine(product)}
          active={product.active}
          badges={
            <>
              <span className="admin-badge">{VARIANT_LABELS[product.variant]}</span>
              <span className="admin-badge">{product.category}</span>
              {product.active && (
                <a className="admin-badge" href={`/ai-products/${product.variant}/${String(product.id)}`} target="_blank" rel="noopener">
                  Открыть в каталоге ↗
                </a>
              )}
            </>
          }
          actions={
            <DeleteAction
              what={`продукт «${product.name}»`}
              note="Если по нему уже есть генерации, он будет выключен, а история пользователей сохранится."
              onDelete={() => api.deleteAiProduct({ params: { id: product.id } })}
              onDeleted={() => changes.deleted(`Продукт «${product.name}» удалён`)}
              onDeactivated={() => void changes.reread()}
            />
          }
        />
      ) : (
        <h2 className="admin-screen__title">Новый продукт</h2>
      )}
      {product && hiddenBecause(product) && (
        <Alert tone="warning">
          Продукт включён, но {hiddenBecause(product)}. Включите {product.hidden_because === 'category' ? 'категорию' : product.hidden_because === 'model' ? 'модель' : 'подключение'} или выберите другую модель.
        </Alert>
      )}
      <Editor
        label={product ? 'Продукт' : 'Новый продукт'}
        fields={productFields(variant, modelId, categories, models)}
        initial={initial}
        submitLabel={product ? 'Сохранить' : 'Создать'}
        done={done}
        schema={product ? AdminAiProductUpdateSchema : AdminAiProductCreateSchema}
        extra={{ fields: takesFields ? fromFieldRows(rows) : [] }}
        precheck={precheck}
        onSubmit={submit}
        aside={(v) => (
          <div className="ai-aside">
            <Watch value={String(v.variant)} onChange={(next) => setVariant(next as ProductVariant)} />
            <Watch value={String(v.model_id ?? '')} onChange={setModelId} />
            {!takesFields && product && <ExampleImage api={api} product={product} onSaved={changes.saved} />}
            <section className="card ai-side" aria-label="Поля шаблона">
              <h3>Поля шаблона</h3>
              {takesFields ? (
                <>
                  <p className="admin-muted">Пользователь заполняет их вместо запроса. Сохраняются вместе с продуктом.</p>
                  <TemplateFields rows={rows} onChange={setRows} template={typeof v.prompt_template === 'string' ? v.prompt_template : ''} errors={checked ? rowErrors : {}} serverErrors={serverErrors} />
                </>
              ) : (
                <p className="admin-muted">
                  Варианту «{VARIANT_LABELS[variant]}» поля не нужны: пользователь пишет запрос сам.
                  {rows.length > 0 && ` Поля (${String(rows.length)}) будут удалены при сохранении.`}
                </p>
              )}
            </section>
            {takesFields && product && <ExampleImage api={api} product={product} onSaved={changes.saved} />}
            <Prices model={model} navigate={navigate} />
            {!product && (
              <section className="card ai-side" aria-label="Пример">
                <h3>Пример</h3>
                <p className="admin-muted">Картинку-пример можно загрузить сразу после создания продукта.</p>
              </section>
            )}
          </div>
        )}
      />
    </>
  );
}

/** The chosen model's parameter choices with what a run of each costs (the catalogue shows the same). */
function Prices({ model, navigate }: { model: AdminAiModel | undefined; navigate: Navigate }) {
  const href = model ? `/admin/ai-models/${String(model.id)}` : '';
  return (
    <section className="card ai-side" aria-label="Параметры и цены">
      <h3>Параметры и цены</h3>
      {!model ? (
        <p className="admin-muted">Выберите модель.</p>
      ) : (
        <>
          <p className="admin-muted">
            Задаются в модели{' '}
            <a href={href} onClick={routedClick(navigate, href)}>
              «{model.name}»
            </a>
            : {modelRates(model)}.
          </p>
          {model.setting.model.params.length === 0 ? (
            <p className="ai-price-line">
              Без вариантов: <strong>{paramPrice(model, undefined)}</strong>
            </p>
          ) : (
            <ul className="ai-prices">
              {model.setting.model.params.map((p) => (
                <li key={p.value}>
                  <span>{p.label}</span>
                  <strong>{paramPrice(model, p)}</strong>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp'];

/** The product's example image: shown, replaced (a preview first) or removed. */
function ExampleImage({ api, product, onSaved }: { api: AdminApi; product: AdminAiProduct; onSaved: (product: AdminAiProduct) => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const { message, begin, show } = useActionMessage<{ tone: 'error' | 'success'; text: string }>();
  const setMessage = (next: { tone: 'error' | 'success'; text: string } | null) => {
    const action = begin();
    if (next) show(action, next);
  };
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    setMessage(null);
    if (!chosen) return;
    if (!ACCEPTED.includes(chosen.type)) return setMessage({ tone: 'error', text: 'Нужна картинка PNG, JPEG или WebP' });
    if (chosen.size > PRODUCT_EXAMPLE_MAX_BYTES) return setMessage({ tone: 'error', text: `Файл больше ${String(PRODUCT_EXAMPLE_MAX_BYTES / 1024 / 1024)} МБ` });
    setFile(chosen);
    setPreview(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(chosen) : null);
  };
  const act = async (run: () => Promise<AdminAiProduct>, done: string) => {
    setBusy(true);
    const action = begin();
    try {
      onSaved(await run());
      setFile(null);
      setPreview(null);
      show(action, { tone: 'success', text: done });
    } catch (err) {
      show(action, { tone: 'error', text: failureMessage(err) });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  const shown = file ? preview : product.example_url;
  return (
    <section className="card ai-side" aria-label="Пример">
      <h3>Пример</h3>
      <p className="admin-muted">{product.variant === 'img_4' ? 'Для этого варианта пример обязателен: его стиль переносится на фото пользователя.' : 'Картинка в карточке каталога и на экране продукта.'}</p>
      <div className="ai-example">
        {shown ? <img className="ai-example__img" src={shown} alt={file ? 'Новый пример' : 'Пример продукта'} /> : <div className="ai-example__none">{file ? 'Предпросмотр недоступен' : 'Примера нет'}</div>}
      </div>
      {file ? (
        <div className="ai-example__actions">
          <span className="admin-muted">{file.name}</span>
          <Button busy={busy} onClick={() => void act(() => api.uploadAiExample({ params: { id: product.id }, files: { image: file } }), 'Пример загружен')}>
            Загрузить
          </Button>
          <Button variant="ghost" onClick={() => { setFile(null); setPreview(null); }}>
            Отмена
          </Button>
        </div>
      ) : (
        <div className="ai-example__actions">
          <label className="btn btn-secondary ai-file" htmlFor={`${id}-file`}>
            {product.example_url ? 'Заменить…' : 'Выбрать картинку…'}
          </label>
          <input id={`${id}-file`} className="visually-hidden" type="file" accept={ACCEPTED.join(',')} onChange={choose} aria-label={product.example_url ? 'Заменить пример' : 'Выбрать пример'} />
          {product.example_url &&
            (asking ? (
              <span className="admin-confirm" role="group" aria-label="Подтверждение">
                Удалить пример?
                <Button variant="danger" busy={busy} onClick={() => void act(() => api.deleteAiExample({ params: { id: product.id } }), 'Пример удалён')}>
                  Да
                </Button>
                <Button variant="ghost" onClick={() => setAsking(false)}>
                  Нет
                </Button>
              </span>
            ) : (
              <Button variant="ghost" onClick={() => setAsking(true)}>
                Удалить пример
              </Button>
            ))}
        </div>
      )}
      <p className="field__hint">PNG, JPEG или WebP, до {PRODUCT_EXAMPLE_MAX_BYTES / 1024 / 1024} МБ</p>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </section>
  );
}
