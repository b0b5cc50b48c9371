import type { ColumnType } from 'kysely';

/** A setting an admin changed (Настройки); a setting at its default has no row. */
export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_by: number | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SettingsTables {
  settings: SettingsTable;
}
