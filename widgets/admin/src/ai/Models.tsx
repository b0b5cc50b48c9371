import { useState } from 'react';
import { AdminAiModelCreateSchema, AdminAiModelUpdateSchema, KIND_PROTOCOLS, MODEL_KINDS, MODEL_KIND_LABELS, type AdminAiModel, type AdminProvider, type ModelKindName } from '@app/contracts/admin';
import { queryState, useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { useLastAction } from '../last-action.tsx';
import { Editor, type FieldSpec, type Values } from '../Editor.tsx';
import type { TabProps } from '../tab-props.ts';
import { CatalogList, isId, useListAddress, type FilterSpec } from './catalog-list.tsx';
import { ModelParams, checkParamRows, fromParamRow, toParamRows, type ParamRow } from './ModelParams.tsx';
import { connectionsFor, defaultConnection } from './model-presets.ts';
import { useProviders } from './options.ts';
import { ActiveBadge, DeleteAction, RecordFrame, RecordHead, Watch, liftFieldError, stampsLine, useCatalogChanges, useSave } from './record.tsx';
import { MODEL_SORTS, type BodyOf } from './contract.ts';
import { PROTOCOL_LABELS, kindLabel, modelRates } from './texts.ts';

const PATH = '/admin/ai-models';
type Navigate = TabProps['navigate'];

type ModelBody = BodyOf<'createAiModel'>;

const kindOptions = MODEL_KINDS.map((k) => ({ value: k, label: MODEL_KIND_LABELS[k] }));

export const MODEL_COLUMNS: readonly Column<AdminAiModel>[] = [
  { key: 'name', label: 'Название', sortable: true, render: (m) => m.name },
  { key: 'active', label: 'Статус', render: (m) => <ActiveBadge active={m.active} /> },
  { key: 'kind', label: 'Тип', sortable: true, render: (m) => <span className="ai-nowrap">{kindLabel(m.kind)}</span> },
  { key: 'connection', label: 'Подключение', render: (m) => m.connection },
  { key: 'provider_model', label: 'Модель провайдера', render: (m) => <code>{m.provider_model}</code> },
  { key: 'price', label: 'Цена', render: (m) => <span className="ai-nowrap">{modelRates(m)}</span> },
  { key: 'params', label: 'Вариантов', numeric: true, render: (m) => m.setting.model.params.length },
  { key: 'products', label: 'Продуктов', numeric: true, render: (m) => m.products },
  { key: 'sort', label: 'Порядок', sortable: true, numeric: true, render: (m) => m.sort },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (m) => m.id },
];

const connectionOption = (c: AdminProvider) => ({ value: String(c.id), label: `${c.name} (${PROTOCOL_LABELS[c.protocol]})${c.active ? '' : ' — выключено'}` });

/** «Аи модели»: the models by kind and connection. */
export function ModelsList({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const providers = useProviders(api);
  const filters: FilterSpec<'kind' | 'connection_id'>[] = [
    { name: 'kind', label: 'Тип', all: 'Все типы', options: kindOptions, valid: (v) => (MODEL_KINDS as readonly string[]).includes(v) },
    { name: 'connection_id', label: 'Подключение', all: 'Все подключения', options: (providers.data?.data ?? []).map(connectionOption), valid: isId },
  ];
  const address = useListAddress(PATH, search, MODEL_SORTS, filters, navigate);
  const { kind, connection_id } = address.filters;
  const list = useRouteQuery(
    api.aiModels,
    { query: { ...address.query, ...(kind ? { kind: kind as ModelKindName } : {}), ...(connection_id ? { connection_id: Number(connection_id) } : {}) } },
    { placeholderData: (prev) => prev },
  );
  return (
    <CatalogList
      title="Аи модели"
      path={PATH}
      columns={MODEL_COLUMNS}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      address={address}
      filters={filters}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск по названию или модели провайдера"
      empty="Моделей пока нет"
      createLabel="Создать модель"
      navigate={navigate}
    />
  );
}

/** A model (/admin/ai-models/{id}) with its prices and parameter choices, or a new one (?new=1). */
export function ModelScreen({ api, id, navigate }: { api: AdminApi; id: number | null; navigate: Navigate }) {
  const record = useRouteQuery(api.aiModel, { params: { id: id ?? 0 } }, { enabled: id !== null });
  const providers = useProviders(api);
  return (
    <RecordFrame back={{ href: PATH, label: 'Все модели' }} navigate={navigate} record={id === null ? null : record} waitFor={[providers]}>
      {(model) => <ModelView key={model?.id ?? 'new'} api={api} model={model} providers={providers.data?.data ?? []} navigate={navigate} />}
    </RecordFrame>
  );
}

const numberHint = {
  words: 'Чат и текст: слов списывается за каждый токен провайдера (запрос и ответ)',
  output: 'Чат и текст: самый длинный ответ, токенов',
  history:
    'С каждым сообщением модель заново читает историю чата, и пользователь платит и за неё. Пусто — последние 20 сообщений (не длиннее 24 000 символов), как по умолчанию; меньше — ответы дешевле, но модель помнит меньше; 0 — без истории. Цену с учётом этого пользователь видит до отправки.',
  media: 'Изображения: медиа токенов за картинку; видео: за ролик (одна цифра после запятой)',
  second: 'Видео: медиа токенов за секунду, если вариант задаёт duration; 0 — цена за ролик',
};

function modelFields(kind: ModelKindName, connection: string, providers: readonly AdminProvider[]): FieldSpec[] {
  const suitable = connectionsFor(kind, providers);
  const current = providers.find((p) => String(p.id) === connection);
  const options = suitable.map(connectionOption);
  // The chosen connection stays listed (and says why it does not fit) until another is picked.
  if (current && !suitable.includes(current)) options.unshift({ value: connection, label: `${connectionOption(current).label} — не запускает модели типа «${kindLabel(kind)}»` });
  return [
    { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100, hint: 'Так модель видят пользователи' },
    { name: 'kind', label: 'Тип', kind: 'select', required: true, options: kindOptions },
    {
      name: 'connection_id',
      numeric: true,
      label: 'Подключение',
      kind: 'select',
      required: true,
      options,
      hint: suitable.length ? `Модели типа «${kindLabel(kind)}» запускают протоколы: ${KIND_PROTOCOLS[kind].map((p) => PROTOCOL_LABELS[p]).join(', ')}` : `Нет подключений, которые запускают модели типа «${kindLabel(kind)}»: создайте его во вкладке «Провайдеры»`,
    },
    { name: 'provider_model', label: 'Модель у провайдера', kind: 'text', required: true, maxLength: 200, placeholder: 'gpt-4o-mini', hint: 'Имя модели в API провайдера (у демо: demo, demo-image, demo-video)' },
    { name: 'words_per_token', label: 'Слов за токен', kind: 'number', required: true, hint: numberHint.words },
    { name: 'max_output_tokens', label: 'Лимит ответа, токенов', kind: 'number', required: true, hint: numberHint.output },
    { name: 'history_messages', label: 'Сколько последних сообщений чата отправлять', kind: 'number', nullable: true, placeholder: 'Все, до 20', hint: numberHint.history, shownWhen: (v) => v.kind === 'chat' },
    { name: 'media_price', label: 'Медиа токенов за изображение или ролик', kind: 'number', required: true, hint: numberHint.media },
    { name: 'media_per_second', label: 'Медиа токенов за секунду видео', kind: 'number', required: true, hint: numberHint.second },
    { name: 'description', label: 'Описание', kind: 'textarea', maxLength: 2000 },
    { name: 'sort', label: 'Порядок', kind: 'number', required: true, hint: 'Меньше — выше в списках' },
    { name: 'active', label: 'Включена', kind: 'checkbox' },
  ];
}

const NEW_MODEL = { name: '', kind: 'chat', provider_model: '', words_per_token: 1, max_output_tokens: 2048, history_messages: null, media_price: 1, media_per_second: 0, description: '', sort: 0, active: true } as const;

/**
 * The kind changed: a connection that does not run the new kind, or is switched off while one
 * that runs it is on, gives way to the first switched-on one that does.
 */
function followKind(providers: readonly AdminProvider[]) {
  return (name: string, draft: Readonly<Record<string, string | boolean>>): Record<string, string> | null => {
    if (name !== 'kind') return null;
    const kind = String(draft.kind) as ModelKindName;
    const suitable = connectionsFor(kind, providers);
    const current = suitable.find((p) => String(p.id) === draft.connection_id);
    if (current?.active) return null;
    const next = defaultConnection(kind, providers);
    return next && next !== draft.connection_id ? { connection_id: next } : null;
  };
}

function ModelView({ api, model, providers, navigate }: { api: AdminApi; model: AdminAiModel | null; providers: readonly AdminProvider[]; navigate: Navigate }) {
  const changes = useCatalogChanges(api.aiModel.route, PATH, navigate);
  const [initial] = useState<Values>(() => {
    if (model) return { ...model, connection_id: String(model.connection_id), setting: null };
    return { ...NEW_MODEL, connection_id: defaultConnection(NEW_MODEL.kind, providers) };
  });
  const [kind, setKind] = useState(String(initial.kind) as ModelKindName);
  const [connection, setConnection] = useState(String(initial.connection_id));
  const [rows, setParamRows] = useState<ParamRow[]>(() => toParamRows(model?.setting.model.params ?? []));
  const actions = useLastAction();
  // The parameter choices are part of the form: editing them is a change of the form too.
  const setRows = (next: ParamRow[]) => {
    setParamRows(next);
    actions.begin();
  };
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const { done, save } = useSave<AdminAiModel, ModelBody>({
    record: model,
    create: (body) => api.createAiModel({ body }),
    update: (id, body) => api.updateAiModel({ params: { id }, body }),
    createdMessage: (m) => `Модель «${m.name}» создана`,
    changes,
  });
  const rowErrors = checkParamRows(rows);
  const submit = async (body: Record<string, unknown>) => {
    setServerErrors([]);
    try {
      await save(body as ModelBody);
    } catch (err) {
      throw liftFieldError(err, 'setting', setServerErrors);
    }
  };
  const precheck = () => {
    setChecked(true);
    return Object.keys(rowErrors).length ? 'Исправьте варианты параметров: ошибки отмечены в списке' : null;
  };
  return (
    <>
      {model ? (
        <RecordHead
          title={model.name}
          meta={stampsLine(model)}
          active={model.active}
          badges={
            <>
              <span className="admin-badge">{kindLabel(model.kind)}</span>
              <span className="admin-badge">{model.connection}</span>
              <span className="admin-badge">Продуктов: {model.products}</span>
            </>
          }
          actions={
            <DeleteAction
              what={`модель «${model.name}»`}
              note={
                model.products > 0
                  ? `На ней работают продукты (${String(model.products)}): пока они есть, удалить её нельзя — выберите им другую модель или выключите эту.`
                  : 'Если по ней уже есть генерации или чаты, она будет выключена, а история сохранится.'
              }
              onDelete={() => api.deleteAiModel({ params: { id: model.id } })}
              onDeleted={() => changes.deleted(`Модель «${model.name}» удалена`)}
              onDeactivated={() => void changes.reread()}
            />
          }
        />
      ) : (
        <h2 className="admin-screen__title">Новая модель</h2>
      )}
      <Editor
        label={model ? 'Модель' : 'Новая модель'}
        fields={modelFields(kind, connection, providers)}
        initial={initial}
        submitLabel={model ? 'Сохранить' : 'Создать'}
        done={done}
        schema={model ? AdminAiModelUpdateSchema : AdminAiModelCreateSchema}
        extra={{ setting: { model: { params: rows.map(fromParamRow) } } }}
        precheck={precheck}
        onSubmit={submit}
        onEdit={model ? undefined : followKind(providers)}
        aside={(v) => (
          <section className="card ai-side" aria-label="Варианты параметров">
            <Watch value={String(v.kind)} onChange={(k) => setKind(k as ModelKindName)} />
            <Watch value={String(v.connection_id ?? '')} onChange={setConnection} />
            <h3>Варианты параметров</h3>
            <p className="admin-muted">Из них пользователь выбирает перед запуском: размер, качество, длительность, стиль ответа. Параметры провайдера уходят в запрос как есть: size — размер, n — число изображений, duration — секунды видео. Сохраняются вместе с моделью.</p>
            <ModelParams
              kind={kind}
              rows={rows}
              onChange={setRows}
              errors={checked ? rowErrors : {}}
              serverErrors={serverErrors}
              pricing={pricing(v)}
            />
          </section>
        )}
      />
    </>
  );
}

/** The model as typed, for the prices of its choices (null while a number is not one yet). */
function pricing(v: Values) {
  const numbers = [v.words_per_token, v.max_output_tokens, v.media_price, v.media_per_second];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  return { kind: String(v.kind) as ModelKindName, words_per_token: Number(v.words_per_token), max_output_tokens: Number(v.max_output_tokens), media_price: Number(v.media_price), media_per_second: Number(v.media_per_second) };
}
