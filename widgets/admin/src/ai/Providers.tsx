import { useId, useState, type SyntheticEvent } from 'react';
import { AdminProviderCreateSchema, AdminProviderUpdateSchema, type AdminProvider, type ProviderTestResult } from '@app/contracts/admin';
import { Alert, ApiError, Button, failureMessage, queryState, useRouteQuery } from '@app/kit';
import { LazyMarkdown } from '@app/kit/lazy-markdown';
import { routedClick } from '@app/kit/routing';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { Editor, type FieldSpec } from '../Editor.tsx';
import type { TabProps } from '../tab-props.ts';
import { when } from '../texts.ts';
import { CatalogList, useListAddress } from './catalog-list.tsx';
import { ActiveBadge, DeleteAction, RecordFrame, RecordHead, stampsLine, useCatalogChanges, useSave } from './record.tsx';
import { PROVIDER_SORTS, type BodyOf } from './contract.ts';
import { PROTOCOL_LABELS, protocolOptions } from './texts.ts';

const PATH = '/admin/providers';
type Navigate = TabProps['navigate'];

type ProviderBody = BodyOf<'createProvider'>;

/** Whether the connection's key is there: only its variable's name is ever shown, never a value. */
export function KeyState({ provider }: { provider: Pick<AdminProvider, 'protocol' | 'api_key_env' | 'key_set'> }) {
  if (!provider.api_key_env) return <span className="admin-muted">{provider.protocol === 'demo' ? 'не нужен' : 'не указан'}</span>;
  return (
    <span className="ai-key">
      <code>{provider.api_key_env}</code> <span className={`admin-badge ${provider.key_set ? 'admin-badge--on' : 'admin-badge--danger'}`}>{provider.key_set ? 'задан' : 'не задан'}</span>
    </span>
  );
}

export const PROVIDER_COLUMNS: readonly Column<AdminProvider>[] = [
  { key: 'name', label: 'Название', sortable: true, render: (p) => p.name },
  { key: 'active', label: 'Статус', render: (p) => <ActiveBadge active={p.active} /> },
  { key: 'protocol', label: 'Протокол', render: (p) => <span className="ai-nowrap">{PROTOCOL_LABELS[p.protocol]}</span> },
  { key: 'base_url', label: 'Адрес API', render: (p) => (p.base_url ? <span className="ai-clip">{p.base_url}</span> : '—') },
  { key: 'key', label: 'Ключ', render: (p) => <KeyState provider={p} /> },
  { key: 'models', label: 'Моделей', numeric: true, render: (p) => p.models },
  { key: 'created_at', label: 'Создано', sortable: true, render: (p) => when(p.created_at) },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (p) => p.id },
];

/** «Провайдеры»: connections to AI providers, keys only by their variable's name. */
export function ProvidersList({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const address = useListAddress(PATH, search, PROVIDER_SORTS, [], navigate);
  const list = useRouteQuery(api.providers, { query: address.query }, { placeholderData: (prev) => prev });
  return (
    <CatalogList
      title="Провайдеры"
      path={PATH}
      columns={PROVIDER_COLUMNS}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      address={address}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск по названию"
      empty="Подключений пока нет"
      createLabel="Создать подключение"
      navigate={navigate}
    />
  );
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
  { name: 'protocol', label: 'Протокол', kind: 'select', required: true, options: protocolOptions, hint: 'OpenAI-совместимый: чат, тексты и картинки; Replicate: картинки и видео; демо работает без сети и ключей' },
  { name: 'base_url', label: 'Адрес API', kind: 'text', nullable: true, maxLength: 500, placeholder: 'https://api.openai.com/v1', hint: 'Нужен OpenAI-совместимым и Replicate; демо адрес не нужен' },
  { name: 'api_key_env', label: 'Переменная окружения с ключом', kind: 'text', nullable: true, maxLength: 100, placeholder: 'OPENAI_API_KEY', hint: 'Только имя переменной на сервере (…_API_KEY или …_API_TOKEN). Сам ключ сюда не вводится и нигде не показывается' },
  { name: 'timeout_seconds', label: 'Тайм-аут запроса, секунд', kind: 'number', required: true },
  { name: 'active', label: 'Включено', kind: 'checkbox' },
];

/** A connection (/admin/providers/{id}) with its test call, or a new one (?new=1). */
export function ProviderScreen({ api, id, navigate }: { api: AdminApi; id: number | null; navigate: Navigate }) {
  const record = useRouteQuery(api.provider, { params: { id: id ?? 0 } }, { enabled: id !== null });
  return (
    <RecordFrame back={{ href: PATH, label: 'Все подключения' }} navigate={navigate} record={id === null ? null : record}>
      {(provider) => <ProviderView key={provider?.id ?? 'new'} api={api} provider={provider} navigate={navigate} />}
    </RecordFrame>
  );
}

function ProviderView({ api, provider, navigate }: { api: AdminApi; provider: AdminProvider | null; navigate: Navigate }) {
  const changes = useCatalogChanges(api.provider.route, PATH, navigate);
  const { done, save } = useSave<AdminProvider, ProviderBody>({
    record: provider,
    create: (body) => api.createProvider({ body }),
    update: (id, body) => api.updateProvider({ params: { id }, body }),
    createdMessage: (p) => `Подключение «${p.name}» создано`,
    changes,
  });
  const modelsHref = provider ? `/admin/ai-models?connection_id=${String(provider.id)}` : '';
  return (
    <>
      {provider ? (
        <RecordHead
          title={provider.name}
          meta={stampsLine(provider)}
          active={provider.active}
          badges={
            <>
              <span className="admin-badge">{PROTOCOL_LABELS[provider.protocol]}</span>
              <a className="admin-badge" href={modelsHref} onClick={routedClick(navigate, modelsHref)}>
                Моделей: {provider.models}
              </a>
            </>
          }
          actions={
            <DeleteAction
              what={`подключение «${provider.name}»`}
              note={provider.models > 0 ? `К нему привязаны модели (${String(provider.models)}): пока они есть, удалить его нельзя — перенесите их или выключите подключение.` : undefined}
              onDelete={() => api.deleteProvider({ params: { id: provider.id } })}
              onDeleted={() => changes.deleted(`Подключение «${provider.name}» удалено`)}
            />
          }
        />
      ) : (
        <h2 className="admin-screen__title">Новое подключение</h2>
      )}
      <Editor
        label={provider ? 'Подключение' : 'Новое подключение'}
        fields={FIELDS}
        initial={provider ?? { name: '', protocol: 'openai', base_url: '', api_key_env: '', timeout_seconds: 60, active: true }}
        submitLabel={provider ? 'Сохранить' : 'Создать'}
        done={done}
        schema={provider ? AdminProviderUpdateSchema : AdminProviderCreateSchema}
        onSubmit={(body) => save(body as ProviderBody)}
        aside={provider ? () => <ProviderCheck api={api} provider={provider} /> : undefined}
      />
    </>
  );
}

/** The key's state and «Проверить»: a small real request through the saved connection. */
function ProviderCheck({ api, provider }: { api: AdminApi; provider: AdminProvider }) {
  const id = useId();
  const [model, setModel] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ProviderTestResult | null>(null);
  const [failure, setFailure] = useState<{ field: boolean; text: string } | null>(null);
  const check = async (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(await api.testProvider({ params: { id: provider.id }, body: model.trim() ? { model: model.trim() } : {} }));
    } catch (err) {
      const fieldMessage = err instanceof ApiError ? err.fields.model?.[0] : undefined;
      setFailure(fieldMessage ? { field: true, text: fieldMessage } : { field: false, text: failureMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card ai-side" aria-label="Проверка подключения">
      <h3>Ключ</h3>
      <p className="ai-side__line">
        <KeyState provider={provider} />
      </p>
      <h3>Проверка связи</h3>
      <p className="admin-muted">Короткий настоящий запрос через сохранённое подключение: время ответа и ответ модели{provider.protocol === 'replicate' ? ' (для Replicate — проверка аккаунта)' : ''}.</p>
      <form className="ai-check" aria-label="Проверка связи" noValidate onSubmit={(e) => void check(e)}>
        {provider.protocol !== 'replicate' && (
          <div className={`field${failure?.field ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={`${id}-model`}>
              Модель для проверки
            </label>
            <input id={`${id}-model`} className="field__input" value={model} maxLength={200} placeholder="по умолчанию — первая чат- или текстовая модель" onChange={(e) => setModel(e.target.value)} aria-invalid={failure?.field ? true : undefined} aria-describedby={failure?.field ? `${id}-model-error` : undefined} />
            {failure?.field && (
              <p className="field__errors" id={`${id}-model-error`}>
                {failure.text}
              </p>
            )}
          </div>
        )}
        <Button type="submit" variant="secondary" busy={busy}>
          Проверить
        </Button>
      </form>
      {failure && !failure.field && <Alert>{failure.text}</Alert>}
      {result && <TestOutcome result={result} />}
    </section>
  );
}

/** What a test call found: the time, the model, and the answer or the reason in Russian. */
export function TestOutcome({ result }: { result: ProviderTestResult }) {
  return (
    <div className={`ai-test ${result.ok ? 'ai-test--ok' : 'ai-test--failed'}`} role="status" aria-label="Результат проверки">
      <p className="ai-test__head">
        <strong>{result.ok ? 'Связь есть' : 'Ошибка'}</strong> · {result.latency_ms} мс{result.model ? ` · модель ${result.model}` : ''}
      </p>
      {/* The model's answer as the chat would draw it (Markdown); a failure is our own plain sentence. */}
      {result.ok ? <LazyMarkdown className="ai-test__answer" text={result.answer ?? ''} cut /> : <p className="ai-test__text">{result.error}</p>}
    </div>
  );
}
