const wordsFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const mediaFormat = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const moneyFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });
const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Words are whole numbers: `10 000`. */
export const formatWords = (n: number) => wordsFormat.format(n);
/** Media tokens with one decimal (seed §9): `3,0`. */
export const formatMedia = (n: number) => mediaFormat.format(n);
/**
 * An amount of media tokens in words: `30,0 медиа токена`. With its one decimal the noun is in
 * the genitive singular whatever the number (`1,0`, `2,5`, `30,0 медиа токена`).
 */
export const mediaTokens = (n: number) => `${formatMedia(n)} медиа токена`;

/** Media token amounts inside a text (a plan's description line) rewritten with one decimal: `+50 медиа токенов` → `+50,0 медиа токена`. */
export const withMediaDecimals = (text: string) =>
  text.replace(/(\d[\d\u00a0\u202f ]*(?:[.,]\d+)?)\s+медиа\s+токен[а-яё]*/giu, (_, amount: string) => mediaTokens(Number(amount.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.'))));

/** Rubles: `1 490 ₽`. */
export const formatRub = (n: number) => `${moneyFormat.format(n)} ₽`;
/** A date in ru-RU in the browser's time zone (seed §9). */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** Russian plural: `plural(5, ['день', 'дня', 'дней'])` → `дней`. */
export function plural(n: number, forms: readonly [string, string, string]): string {
  const abs = Math.abs(n) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) return forms[2];
  if (last > 1 && last < 5) return forms[1];
  if (last === 1) return forms[0];
  return forms[2];
}
