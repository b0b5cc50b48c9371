import { isDeepStrictEqual } from 'node:util';
import {
  ADMIN_AI_TEXTS,
  KIND_PROTOCOLS,
  MODEL_KIND_LABELS,
  VARIANT_MODEL_KIND,
  type AdminAiModel,
  type AdminDeleteResult,
  type AdminProvider,
  type ModelParamInput,
} from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { announcedChange } from '../../lib/notified-cache.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { AiModelRow, ModelKind, ProviderConnectionRow, ProviderProtocol } from '../ai/ai.table.ts';
import { catalogChanged, findConnection } from '../ai/ai.queries.ts';
import { readModelSetting, type ModelSetting } from '../ai/model-setting.ts';
import { mediaFromWire, mediaToWire } from '../wallet/wallet.queries.ts';
import { destinationRefusal } from '../../providers/provider-network.ts';
import { lastPage } from './admin-list.ts';
import { FieldErrors, applyChange, audit, defined, iso, switchOff, type ListQuery } from './admin-ai-edits.ts';
import {
  connectionModelKinds,
  deleteCatalogRow,
  findModel,
  findProvider,
  insertModel,
  insertProvider,
  listModels,
  listProviders,
  lockModel,
  lockProvider,
  modelHasHistory,
  modelProductVariants,
  providerNamed,
  updateModelRow,
  updateProviderRow,
  type ModelListRow,
  type ProviderListRow,
} from './admin-ai.queries.ts';

/* The admin's models and provider connections: what chat messages and runs look up through the model cache. */

/** A change of models or connections: every process drops its model cache when it commits (`catalogChanged`). */
const catalogChange = <T>(ctx: AppContext, fn: (tx: Tx) => Promise<T>): Promise<T> => announcedChange(ctx.db, catalogChanged, ctx.models, fn);

// Models

const toModel = (r: ModelListRow): AdminAiModel => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  connection_id: r.connection_id,
  connection: r.connection,
  protocol: r.protocol,
  provider_model: r.provider_model,
  words_per_token: r.words_per_token,
  media_price: mediaToWire(r.media_price_tenths),
  media_per_second: mediaToWire(r.media_per_second_tenths),
  max_output_tokens: r.max_output_tokens,
  history_messages: r.history_messages,
  setting: readModelSetting(r.setting),
  description: r.description,
  sort: r.sort,
  active: r.active,
  products: r.products,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** A model as the editor sends it (prices in media tokens on the wire, tenths inside). */
interface ModelInput {
  name: string;
  kind: ModelKind;
  connection_id: number;
  provider_model: string;
  words_per_token: number;
  media_price: number;
  media_per_second: number;
  max_output_tokens: number;
  history_messages: number | null;
  setting: { model: { params: ModelParamInput[] } };
  description: string;
  sort: number;
  active: boolean;
}

type ModelState = Omit<ModelInput, 'media_price' | 'media_per_second' | 'setting'> & { media_price_tenths: number; media_per_second_tenths: number; setting: ModelSetting };

const modelState = (r: AiModelRow): ModelState => ({
  name: r.name,
  kind: r.kind,
  connection_id: r.connection_id,
  provider_model: r.provider_model,
  words_per_token: r.words_per_token,
  media_price_tenths: r.media_price_tenths,
  media_per_second_tenths: r.media_per_second_tenths,
  max_output_tokens: r.max_output_tokens,
  history_messages: r.history_messages,
  setting: readModelSetting(r.setting),
  description: r.description,
  sort: r.sort,
  active: r.active,
});

/** The editor's fields in the table's units. */
function fromInput(input: Partial<ModelInput>): Partial<ModelState> {
  const { media_price, media_per_second, setting, ...rest } = defined(input);
  return {
    ...rest,
    ...(media_price === undefined ? {} : { media_price_tenths: mediaFromWire(media_price) }),
    ...(media_per_second === undefined ? {} : { media_per_second_tenths: mediaFromWire(media_per_second) }),
    ...(setting === undefined ? {} : { setting: { model: { params: setting.model.params.map(withoutEmptyProvider) } } }),
  };
}

const withoutEmptyProvider = ({ provider, ...param }: ModelParamInput): ModelParamInput => (provider && Object.keys(provider).length ? { ...param, provider } : param);

/** `setting.model.params` checked by the reader chats and runs use: every choice must be read back exactly as given. */
function checkSetting(setting: ModelSetting, errors: FieldErrors): void {
  const read = readModelSetting(setting).model.params;
  const seen = new Set<string>();
  for (const param of setting.model.params) {
    if (seen.has(param.value)) {
      errors.add('setting', `Значение «${param.value}» повторяется: у каждого варианта своё`);
      continue;
    }
    seen.add(param.value);
    const kept = read.find((p) => p.value === param.value);
    if (!kept || !isDeepStrictEqual(kept, param)) errors.add('setting', `Вариант «${param.value}» не читается так, как задан`);
  }
}

/** The connection exists and can run the kind; the kind suits the products already on the model. */
async function checkModel(tx: Tx, id: number | null, state: ModelState, touched: ReadonlySet<string> | 'all'): Promise<void> {
  const errors = new FieldErrors();
  const has = (...keys: (keyof ModelState)[]) => touched === 'all' || keys.some((k) => touched.has(k));
  if (has('connection_id', 'kind')) {
    const connection = await findConnection(tx, state.connection_id);
    if (!connection) errors.add('connection_id', 'Такого подключения нет');
    else if (!KIND_PROTOCOLS[state.kind].includes(connection.protocol)) {
      errors.add('connection_id', `Подключение «${connection.name}» (протокол ${connection.protocol}) не запускает модели типа «${MODEL_KIND_LABELS[state.kind]}»`);
    }
  }
  if (id !== null && has('kind')) {
    const wrong = (await modelProductVariants(tx, id)).filter((v) => VARIANT_MODEL_KIND[v] !== state.kind);
    if (wrong.length) errors.add('kind', `На модели работают продукты (${String(wrong.length)}), которым нужен другой тип: сначала выберите им другую модель`);
  }
  if (has('setting')) checkSetting(state.setting, errors);
  errors.throwIfAny();
}

export async function adminModels(ctx: AppContext, query: ListQuery<'id' | 'name' | 'kind' | 'sort' | 'created_at'> & { kind?: ModelKind | undefined; connection_id?: number | undefined }) {
  const { rows, total } = await listModels(ctx.db, query);
  return { data: rows.map(toModel), last_page: lastPage(total) };
}

export async function adminModel(db: Executor, id: number): Promise<AdminAiModel> {
  const row = await findModel(db, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.modelNotFound);
  return toModel(row);
}

const modelValues = (s: ModelState) => ({ ...s, setting: JSON.stringify(s.setting) });

export async function createModel(ctx: AppContext, actor: Viewer, body: ModelInput): Promise<AdminAiModel> {
  return catalogChange(ctx, async (tx) => {
    const state = fromInput(body) as ModelState;
    await checkModel(tx, null, state, 'all');
    const row = await insertModel(tx, modelValues(state));
    await audit(tx, actor, 'ai_model', row.id, 'create', null, modelState(row));
    return adminModel(tx, row.id);
  });
}

export async function updateModel(ctx: AppContext, actor: Viewer, id: number, change: Partial<ModelInput>): Promise<AdminAiModel> {
  return catalogChange(ctx, async (tx) => {
    const row = await lockModel(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.modelNotFound);
    const given = fromInput(change);
    const before = modelState(row);
    const after: ModelState = { ...before, ...given };
    await checkModel(tx, id, after, new Set(Object.keys(given)));
    await applyChange(tx, actor, 'ai_model', id, before, after, () => updateModelRow(tx, id, modelValues(after)));
    return adminModel(tx, id);
  });
}

/**
 * Deletes a model. One that products run on is refused (they would have no model); one that runs
 * or chats refer to is switched off instead, so their history keeps its model.
 */
export async function deleteModel(ctx: AppContext, actor: Viewer, id: number): Promise<AdminDeleteResult> {
  return catalogChange(ctx, async (tx): Promise<AdminDeleteResult> => {
    const row = await lockModel(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.modelNotFound);
    const products = (await modelProductVariants(tx, id)).length;
    if (products > 0) throw new AppError('IN_USE', `На модели работают продукты (${String(products)}): выберите им другую модель или удалите их, затем удалите модель`);
    if (await modelHasHistory(tx, id)) return switchOff(tx, actor, 'ai_models', 'ai_model', row);
    await deleteCatalogRow(tx, 'ai_models', id);
    await audit(tx, actor, 'ai_model', id, 'delete', modelState(row), null);
    return { outcome: 'deleted' };
  });
}

// Provider connections

/** Whether the connection's key variable is set on this server (the value itself never leaves it). */
export const keyIsSet = (ctx: AppContext, env: string | null) => env !== null && Boolean(ctx.config.providerKeys[env]);

/** Why this server will not send the key of `keyEnv` to `baseUrl` (`destinationRefusal`), in Russian; null when it will. */
export function destinationError(ctx: AppContext, baseUrl: string, keyEnv: string | null): string | null {
  const refusal = destinationRefusal(ctx.config, baseUrl, keyEnv);
  switch (refusal?.reason) {
    case undefined:
      return null;
    case 'not_url':
      return 'Укажите адрес API';
    case 'key_host':
      return refusal.allowed.length
        ? `Ключ из переменной ${refusal.keyEnv} отправляется только на ${refusal.allowed.join(', ')} (${refusal.keyEnv}_HOSTS на сервере), а не на ${refusal.host}`
        : `Ключ из переменной ${refusal.keyEnv} никуда не отправляется: адреса, куда его можно отправлять, задаются на сервере в ${refusal.keyEnv}_HOSTS`;
    case 'private':
      return privateHostError(refusal.host);
  }
}

/** A private address refused (on its face, or what a name resolved to when connecting), in Russian. */
export const privateHostError = (host: string, address?: string) =>
  `Адрес ${host}${address && address !== host ? ` ведёт на ${address} —` : ' —'} внутренний (этот сервер или локальная сеть): такие адреса разрешаются только в PROVIDER_PRIVATE_HOSTS на сервере`;

const toProvider = (ctx: AppContext, r: ProviderListRow): AdminProvider => ({
  id: r.id,
  name: r.name,
  protocol: r.protocol,
  base_url: r.base_url,
  api_key_env: r.api_key_env,
  key_set: keyIsSet(ctx, r.api_key_env),
  timeout_seconds: r.timeout_seconds,
  active: r.active,
  models: r.models,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

interface ProviderState {
  name: string;
  protocol: ProviderProtocol;
  base_url: string | null;
  api_key_env: string | null;
  timeout_seconds: number;
  active: boolean;
}
const providerState = (r: ProviderConnectionRow): ProviderState => ({
  name: r.name,
  protocol: r.protocol,
  base_url: r.base_url,
  api_key_env: r.api_key_env,
  timeout_seconds: r.timeout_seconds,
  active: r.active,
});

/** The fields of a connection (its key fields are refused by the contract, so never reach here). */
const providerInput = (body: Partial<ProviderState> & Record<string, unknown>): Partial<ProviderState> =>
  defined({ name: body.name, protocol: body.protocol, base_url: body.base_url, api_key_env: body.api_key_env, timeout_seconds: body.timeout_seconds, active: body.active });

const NAME_TAKEN = 'Подключение с таким названием уже есть';

/** Two admins saving the same new name at once: the second meets the unique index, and hears why. */
function nameTaken(err: unknown): never {
  if ((err as { code?: unknown }).code === '23505') throw fieldError('name', NAME_TAKEN);
  throw err;
}

/**
 * A connection as it is about to be saved (`before`: as it was). Where its key goes is checked
 * when the connection is new or its protocol, address or key variable changes, so a connection
 * saved before the configuration changed can still be renamed or switched off (calling it is
 * refused by the registry all the same).
 */
async function checkProvider(ctx: AppContext, tx: Tx, id: number | null, state: ProviderState, before?: ProviderState): Promise<void> {
  const errors = new FieldErrors();
  if (await providerNamed(tx, state.name, id ?? 0)) errors.add('name', NAME_TAKEN);
  if (state.protocol !== 'demo') {
    if (!state.base_url) errors.add('base_url', 'Укажите адрес API');
    if (!state.api_key_env) errors.add('api_key_env', 'Укажите имя переменной окружения, в которой задан ключ');
    const moved = !before || before.protocol !== state.protocol || before.base_url !== state.base_url || before.api_key_env !== state.api_key_env;
    const destination = moved && state.base_url && state.api_key_env ? destinationError(ctx, state.base_url, state.api_key_env) : null;
    if (destination) errors.add('base_url', destination);
  }
  if (id !== null) {
    const kinds = [...new Set(await connectionModelKinds(tx, id))].filter((k) => !KIND_PROTOCOLS[k].includes(state.protocol));
    if (kinds.length) errors.add('protocol', `Протокол ${state.protocol} не запускает модели этого подключения (${kinds.map((k) => MODEL_KIND_LABELS[k]).join(', ')})`);
  }
  errors.throwIfAny();
}

export async function adminProviders(ctx: AppContext, query: ListQuery<'id' | 'name' | 'created_at'>) {
  const { rows, total } = await listProviders(ctx.db, query);
  return { data: rows.map((r) => toProvider(ctx, r)), last_page: lastPage(total) };
}

export async function adminProvider(ctx: AppContext, db: Executor, id: number): Promise<AdminProvider> {
  const row = await findProvider(db, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.providerNotFound);
  return toProvider(ctx, row);
}

export async function createProvider(ctx: AppContext, actor: Viewer, body: ProviderState & Record<string, unknown>): Promise<AdminProvider> {
  return catalogChange(ctx, async (tx) => {
    const state = providerInput(body) as ProviderState;
    await checkProvider(ctx, tx, null, state);
    const row = await insertProvider(tx, state);
    await audit(tx, actor, 'provider', row.id, 'create', null, providerState(row));
    return adminProvider(ctx, tx, row.id);
  }).catch(nameTaken);
}

/** Changes a connection; its new `updated_at` makes every process build its adapter anew. */
export async function updateProvider(ctx: AppContext, actor: Viewer, id: number, change: Partial<ProviderState> & Record<string, unknown>): Promise<AdminProvider> {
  return catalogChange(ctx, async (tx) => {
    const row = await lockProvider(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.providerNotFound);
    const before = providerState(row);
    const after: ProviderState = { ...before, ...providerInput(change) };
    await checkProvider(ctx, tx, id, after, before);
    await applyChange(tx, actor, 'provider', id, before, after, () => updateProviderRow(tx, id, after));
    return adminProvider(ctx, tx, id);
  }).catch(nameTaken);
}

/** Deletes a connection without models (one with models is refused: they would have nowhere to run). */
export async function deleteProvider(ctx: AppContext, actor: Viewer, id: number): Promise<AdminDeleteResult> {
  return catalogChange(ctx, async (tx): Promise<AdminDeleteResult> => {
    const row = await lockProvider(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.providerNotFound);
    const models = (await connectionModelKinds(tx, id)).length;
    if (models > 0) throw new AppError('IN_USE', `К подключению привязаны модели (${String(models)}): перенесите их на другое подключение или удалите, затем удалите подключение`);
    await deleteCatalogRow(tx, 'provider_connections', id);
    await audit(tx, actor, 'provider', id, 'delete', providerState(row), null);
    return { outcome: 'deleted' };
  });
}
