import type { Migration } from 'kysely';
import * as m0001 from './0001_create_accounts.ts';
import * as m0002 from './0002_create_wallets.ts';
import * as m0003 from './0003_create_billing.ts';
import * as m0004 from './0004_refunded_amounts.ts';
import * as m0005 from './0005_one_paid_trial.ts';
import * as m0006 from './0006_create_job_failures.ts';
import * as m0007 from './0007_create_wallet_apply.ts';
import * as m0008 from './0008_create_ai_catalog.ts';
import * as m0010 from './0010_create_files.ts';
import * as m0011 from './0011_create_chats.ts';
import * as m0012 from './0012_wallet_apply_hold_status.ts';
import * as m0013 from './0013_chat_functions.ts';
import * as m0014 from './0014_chat_close_and_delete.ts';
import * as m0015 from './0015_create_generations.ts';
import * as m0016 from './0016_files_without_owner.ts';
import * as m0017 from './0017_index_generation_provider_ref.ts';
import * as m0018 from './0018_create_audit_log.ts';
import * as m0020 from './0020_create_settings_and_refunds.ts';
import * as m0021 from './0021_money_edges.ts';
import * as m0031 from './0031_index_checkouts_and_ledger.ts';
import * as m0032 from './0032_temporary_passwords.ts';
import * as m0033 from './0033_viewer_notifications.ts';
import * as m0034 from './0034_chat_history_in_send.ts';
import * as m0040 from './0040_account_setup_steps.ts';
import * as m0060 from './0060_keep_invoice_grants.ts';
import * as m0070 from './0070_seeded_templates_grammar.ts';
import * as m0080 from './0080_staff_second_factor.ts';
import * as m0090 from './0090_create_promo_codes_and_referrals.ts';
import * as m0100 from './0100_notices_and_personal_data.ts';
import * as m0110 from './0110_chat_variants_and_search.ts';
import * as m0120 from './0120_chat_history_cap_and_summaries.ts';
import * as m0130 from './0130_wallet_at_commit.ts';
import * as m0131 from './0131_chat_send_cap_lock_last.ts';

/** Every migration, in order; names are the files' names. */
export const migrations: Record<string, Migration> = {
  '0001_create_accounts': m0001,
  '0002_create_wallets': m0002,
  '0003_create_billing': m0003,
  '0004_refunded_amounts': m0004,
  '0005_one_paid_trial': m0005,
  '0006_create_job_failures': m0006,
  '0007_create_wallet_apply': m0007,
  '0008_create_ai_catalog': m0008,
  '0010_create_files': m0010,
  '0011_create_chats': m0011,
  '0012_wallet_apply_hold_status': m0012,
  '0013_chat_functions': m0013,
  '0014_chat_close_and_delete': m0014,
  '0015_create_generations': m0015,
  '0016_files_without_owner': m0016,
  '0017_index_generation_provider_ref': m0017,
  '0018_create_audit_log': m0018,
  '0020_create_settings_and_refunds': m0020,
  '0021_money_edges': m0021,
  '0031_index_checkouts_and_ledger': m0031,
  '0032_temporary_passwords': m0032,
  '0033_viewer_notifications': m0033,
  '0034_chat_history_in_send': m0034,
  '0040_account_setup_steps': m0040,
  '0060_keep_invoice_grants': m0060,
  '0070_seeded_templates_grammar': m0070,
  '0080_staff_second_factor': m0080,
  '0090_create_promo_codes_and_referrals': m0090,
  '0100_notices_and_personal_data': m0100,
  '0110_chat_variants_and_search': m0110,
  '0120_chat_history_cap_and_summaries': m0120,
  '0130_wallet_at_commit': m0130,
  '0131_chat_send_cap_lock_last': m0131,
};
