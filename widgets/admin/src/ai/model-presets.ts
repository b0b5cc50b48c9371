import { KIND_PROTOCOLS, type AdminProvider, type ModelKindName } from '@app/contracts/admin';

/** A parameter choice as the form holds it (`ModelParams`' row without its key). */
export interface PresetRow {
  value: string;
  label: string;
  temperature: string;
  max_output_tokens: string;
  provider: string;
}

const row = (value: string, label: string, extra: Partial<PresetRow> = {}): PresetRow => ({ value, label, temperature: '', max_output_tokens: '', provider: '', ...extra });

const TALK = [row('precise', 'Точный', { temperature: '0.2' }), row('balanced', 'Обычный', { temperature: '0.7' }), row('creative', 'Творческий', { temperature: '1.2' })];

/**
 * The usual choices of each kind, one click away in a new model's form: a chat or text model
 * offers answers more or less free (temperature), an image model sizes, a video model durations.
 */
export const MODEL_PRESETS: Record<ModelKindName, { add: string; rows: readonly PresetRow[] }> = {
  chat: { add: 'Добавить типовые: точный, обычный, творческий', rows: TALK },
  text: { add: 'Добавить типовые: точный, обычный, творческий', rows: TALK },
  image: {
    add: 'Добавить типовые размеры',
    rows: [row('square', 'Квадрат 1024×1024', { provider: 'size=1024x1024' }), row('landscape', 'Горизонтальная 1536×1024', { provider: 'size=1536x1024' }), row('portrait', 'Вертикальная 1024×1536', { provider: 'size=1024x1536' })],
  },
  video: { add: 'Добавить типовые длительности', rows: [row('5s', '5 секунд', { provider: 'duration=5' }), row('10s', '10 секунд', { provider: 'duration=10' })] },
};

/** What an empty row of each kind suggests (its placeholders). */
export const PARAM_PLACEHOLDERS: Record<ModelKindName, { value: string; label: string; provider: string }> = {
  chat: { value: 'balanced', label: 'Обычный', provider: 'top_p=0.9' },
  text: { value: 'balanced', label: 'Обычный', provider: 'top_p=0.9' },
  image: { value: 'square', label: 'Квадрат 1024×1024', provider: 'size=1024x1024\nn=1' },
  video: { value: '5s', label: '5 секунд', provider: 'duration=5' },
};

/** Connections that run models of `kind`: the switched-on ones first (each group in its own order). */
export function connectionsFor(kind: ModelKindName, providers: readonly AdminProvider[]): AdminProvider[] {
  const suitable = providers.filter((p) => KIND_PROTOCOLS[kind].includes(p.protocol));
  return [...suitable.filter((p) => p.active), ...suitable.filter((p) => !p.active)];
}

/** The connection a new model of `kind` starts with: the first switched-on one that runs it ('' when none runs it). */
export const defaultConnection = (kind: ModelKindName, providers: readonly AdminProvider[]): string => {
  const first = connectionsFor(kind, providers)[0];
  return first ? String(first.id) : '';
};
