import type { AdminGeneration } from '@app/contracts/admin';

/** What a product of each variant makes, as the history shows beside its name. */
export const VARIANT_LABELS: Record<AdminGeneration['variant'], string> = {
  img: 'Картинка по описанию',
  img_2: 'Картинка по образцу',
  img_3: 'Картинка по шаблону',
  img_4: 'Обработка картинки',
  mask: 'Правка по маске',
  text_1: 'Текст',
  video: 'Видео',
};

/** How long something took: «8 с», «4 мин 5 с», «2 ч 3 мин». */
export function duration(fromIso: string, toIso: string): string {
  const s = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (s < 60) return `${String(s)} с`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${String(m)} мин ${String(s % 60)} с` : `${String(m)} мин`;
  return `${String(Math.floor(m / 60))} ч ${String(m % 60)} мин`;
}
