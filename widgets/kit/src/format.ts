/**
 * A formatter made at its first use, not as the kit loads: the first Intl object of a page loads
 * the locale's data, a long step on a slow phone that pages which format nothing (the sign-in
 * forms) need not take before their widgets mount.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const wordsFormat = once(() => new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }));
const mediaFormat = once(() => new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
const moneyFormat = once(() => new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 }));
const dateFormat = once(() => new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }));

/** Words are whole numbers: `10 000`. */
export const formatWords = (n: number) => wordsFormat().format(n);
/** Media tokens with one decimal (seed §9): `3,0`. */
export const formatMedia = (n: number) => mediaFormat().format(n);
/**
 * An amount of media tokens in words: `30,0 медиа токена`. With its one decimal the noun is in
 * the genitive singular whatever the number (`1,0`, `2,5`, `30,0 медиа токена`).
 */
export const mediaTokens = (n: number) => `${formatMedia(n)} медиа токена`;

/** An amount of money without its currency, to two decimals at most: `1 490`, `12,5`. */
export const formatMoney = (n: number) => moneyFormat().format(n);
/** Rubles: `1 490 ₽`. */
export const formatRub = (n: number) => `${formatMoney(n)} ₽`;
/** A date in ru-RU in the browser's time zone (seed §9). */
export const formatDate = (iso: string) => dateFormat().format(new Date(iso));

/** Russian plural: `plural(5, ['день', 'дня', 'дней'])` → `дней`. */
export function plural(n: number, forms: readonly [string, string, string]): string {
  const abs = Math.abs(n) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) return forms[2];
  if (last > 1 && last < 5) return forms[1];
  if (last === 1) return forms[0];
  return forms[2];
}

/**
 * The noun after «до» (and «от», «больше», «меньше»), which takes the genitive: singular after a
 * number ending in 1 but not 11, plural otherwise. `genitive(21, ['слова', 'слов'])` → `слова`,
 * `genitive(1024, ['слова', 'слов'])` → `слов`.
 */
export function genitive(n: number, forms: readonly [singular: string, plural: string]): string {
  const abs = Math.abs(n) % 100;
  return abs % 10 === 1 && abs !== 11 ? forms[0] : forms[1];
}

/** The forms of «слово» after a number: one, a few, many. */
export const WORD_FORMS = ['слово', 'слова', 'слов'] as const;

/** An amount of words: `1 слово`, `3 слова`, `1 024 слова`, `10 000 слов`. */
export const wordsAmount = (n: number) => `${formatWords(n)} ${plural(n, WORD_FORMS)}`;

/**
 * The most a price may come to, as every screen writes it: `до 1 слова`, `до 21 слова`,
 * `до 1 024 слов` (the genitive after «до»); media tokens keep their decimal and the genitive
 * singular, `до 2,5 медиа токена`.
 */
export function upTo(wallet: 'words' | 'media', n: number): string {
  return wallet === 'media' ? `до ${mediaTokens(n)}` : `до ${formatWords(n)} ${genitive(n, ['слова', 'слов'])}`;
}

/**
 * A bound shown as a round figure: rounded up to two significant digits (`844` → `850`,
 * `1 201` → `1 300`, `95` → `95`), so a worst case worked out to the word does not read as an
 * exact price. Never less than `n`.
 */
export function roundUpFigure(n: number): number {
  if (!Number.isFinite(n) || n <= 100) return Math.ceil(n);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / step) * step;
}

/**
 * A catalogue product's price as users and staff both see it: «1,0 медиа токена», or for a text
 * product, charged by use, its most — the server's bound (the bare template's worst case plus
 * the model's answer limit, e.g. 844) rounded up to two digits, «до 850 слов», so it reads as
 * the ceiling it is rather than an exact price.
 */
export const catalogPriceLabel = (price: { wallet: 'words' | 'media'; amount: number; up_to: boolean }) =>
  price.up_to ? upTo(price.wallet, roundUpFigure(price.amount)) : price.wallet === 'media' ? mediaTokens(price.amount) : wordsAmount(price.amount);
