import type { ColumnType, Generated, Selectable } from 'kysely';

export type ProviderProtocol = 'openai' | 'replicate' | 'demo';
export type ModelKind = 'chat' | 'text' | 'image' | 'video';

/** Where models run: an API speaking a protocol, its key named by an environment variable (never stored). */
export interface ProviderConnectionsTable {
  id: Generated<number>;
  name: string;
  protocol: ProviderProtocol;
  base_url: string | null;
  /** The environment variable holding the key (`OPENAI_API_KEY`); see `config.providerKeys`. */
  api_key_env: string | null;
  timeout_seconds: ColumnType<number, number | undefined, number>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type ProviderConnectionRow = Selectable<ProviderConnectionsTable>;

/** A model of the catalogue: chat, text, image and video models in one table (PRODUCT.md). */
export interface AiModelsTable {
  id: Generated<number>;
  name: string;
  kind: ModelKind;
  connection_id: number;
  provider_model: string;
  /** Words charged per provider token (chat and text models). */
  words_per_token: ColumnType<number, number | undefined, number>;
  /** Media tokens, in tenths, per image or per generation. */
  media_price_tenths: ColumnType<number, number | undefined, number>;
  /** Media tokens, in tenths, per second of video where the model takes a duration. */
  media_per_second_tenths: ColumnType<number, number | undefined, number>;
  max_output_tokens: ColumnType<number, number | undefined, number>;
  /** Chat models: how many of the chat's latest messages go with a new one (null: the service's window; 0: none). */
  history_messages: ColumnType<number | null, number | null | undefined, number | null>;
  /** `{model: {params: [...]}}`, stored as an object or (as the seed allows) a JSON string. */
  setting: ColumnType<unknown, string | undefined, string>;
  description: ColumnType<string, string | undefined, string>;
  sort: ColumnType<number, number | undefined, number>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type AiModelRow = Selectable<AiModelsTable>;

export interface AiTables {
  provider_connections: ProviderConnectionsTable;
  ai_models: AiModelsTable;
}
