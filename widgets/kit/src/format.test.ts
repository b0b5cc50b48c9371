import { describe, expect, it } from 'vitest';
import { formatDate, formatMedia, formatRub, formatWords, genitive, mediaTokens, plural, roundUpFigure, upTo, wordsAmount } from './format.ts';

/** Intl separates thousands with a no-break space; compare as plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('format', () => {
  it('shows media tokens with one decimal (seed §9)', () => {
    expect(formatMedia(3)).toBe('3,0');
    expect(formatMedia(0.5)).toBe('0,5');
    expect(formatMedia(12.25)).toBe('12,3');
    expect(plain(formatMedia(1500))).toBe('1 500,0');
  });

  it('shows words as whole numbers grouped by thousands', () => {
    expect(plain(formatWords(10000))).toBe('10 000');
    expect(formatWords(999)).toBe('999');
    expect(plain(formatWords(1234567.4))).toBe('1 234 567');
  });

  it('keeps a thousands group on one line', () => {
    expect(formatWords(10000)).not.toContain(' ');
  });

  it('shows rubles', () => {
    expect(plain(formatRub(1490))).toBe('1 490 ₽');
    expect(formatRub(1)).toBe('1 ₽');
  });

  it('shows dates in ru-RU', () => {
    expect(formatDate('2026-03-05T10:00:00Z')).toMatch(/^05\.03\.2026, \d{2}:\d{2}$/);
  });

  it('picks the Russian plural form', () => {
    const forms = ['день', 'дня', 'дней'] as const;
    const cases: [number, string][] = [
      [0, 'дней'],
      [1, 'день'],
      [2, 'дня'],
      [4, 'дня'],
      [5, 'дней'],
      [11, 'дней'],
      [12, 'дней'],
      [14, 'дней'],
      [21, 'день'],
      [22, 'дня'],
      [25, 'дней'],
      [101, 'день'],
      [111, 'дней'],
      [-1, 'день'],
    ];
    for (const [n, form] of cases) expect(`${n} ${plural(n, forms)}`).toBe(`${n} ${form}`);
  });
});

describe('media token amounts in words', () => {
  it('always have one decimal and the genitive singular', () => {
    expect(mediaTokens(3)).toBe('3,0 медиа токена');
    expect(mediaTokens(12.5)).toBe('12,5 медиа токена');
  });

});

describe('amounts and bounds of a price', () => {
  it('an amount of words agrees with its number', () => {
    expect(wordsAmount(1)).toBe('1 слово');
    expect(wordsAmount(3)).toBe('3 слова');
    expect(wordsAmount(11)).toBe('11 слов');
    expect(plain(wordsAmount(1024))).toBe('1 024 слова');
    expect(plain(wordsAmount(10_000))).toBe('10 000 слов');
  });

  it('«до N» takes the genitive: singular after 1, 21, 31… (not 11), plural otherwise', () => {
    const cases: [number, string][] = [
      [1, 'до 1 слова'],
      [2, 'до 2 слов'],
      [4, 'до 4 слов'],
      [5, 'до 5 слов'],
      [11, 'до 11 слов'],
      [21, 'до 21 слова'],
      [22, 'до 22 слов'],
      [111, 'до 111 слов'],
      [841, 'до 841 слова'],
      [844, 'до 844 слов'],
      [1024, 'до 1 024 слов'],
      [3000, 'до 3 000 слов'],
    ];
    for (const [n, text] of cases) expect(plain(upTo('words', n))).toBe(text);
    expect(genitive(31, ['дня', 'дней'])).toBe('дня');
    expect(genitive(12, ['дня', 'дней'])).toBe('дней');
  });

  it('«до N» of media tokens keeps the decimal and the genitive singular', () => {
    expect(upTo('media', 1)).toBe('до 1,0 медиа токена');
    expect(upTo('media', 2.5)).toBe('до 2,5 медиа токена');
    expect(plain(upTo('media', 1500))).toBe('до 1 500,0 медиа токена');
  });

  it('a bound is rounded up to two significant digits, never down', () => {
    expect(roundUpFigure(844)).toBe(850);
    expect(roundUpFigure(841)).toBe(850);
    expect(roundUpFigure(850)).toBe(850);
    expect(roundUpFigure(1201)).toBe(1300);
    expect(roundUpFigure(12_345)).toBe(13_000);
    expect(roundUpFigure(95)).toBe(95);
    expect(roundUpFigure(100)).toBe(100);
    expect(roundUpFigure(101)).toBe(110);
    for (let n = 1; n < 50_000; n += 7) expect(roundUpFigure(n)).toBeGreaterThanOrEqual(n);
  });
});
