import type { ColumnType, Generated } from 'kysely';
import type { ProductVariant } from '@app/contracts';
import type { WalletKind } from '../wallet/wallet.table.ts';

export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A run of a product for a user: what it was asked, where it stands, what it cost and produced. */
export interface GenerationsTable {
  id: Generated<number>;
  user_id: number;
  product_id: number | null;
  model_id: number | null;
  variant: ProductVariant;
  /** Kept with the run: the product or model may be renamed or deleted later. */
  product_name: string;
  model_name: string;
  prompt: ColumnType<string, string | undefined, string>;
  /** The fields and parameter the user chose. */
  inputs: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<GenerationStatus, GenerationStatus | undefined, GenerationStatus>;
  /** 0–100. */
  progress: ColumnType<number, number | undefined, number>;
  wallet: WalletKind;
  /** In the wallet's units: words, or tenths of a media token. */
  cost: ColumnType<number, number | undefined, number>;
  hold_id: number | null;
  /** The provider's id of the run (a Replicate prediction), to pick it up again after a crash. */
  provider_ref: string | null;
  text_result: string | null;
  /** Why it failed, for the user (Russian). */
  error: string | null;
  /** The provider's own message, for logs and admins. */
  error_detail: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface GenerationFilesTable {
  generation_id: number;
  file_id: number;
  role: 'input' | 'mask' | 'output';
  position: number;
}

export interface GenerationTables {
  generations: GenerationsTable;
  generation_files: GenerationFilesTable;
}
