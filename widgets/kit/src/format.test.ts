import { describe, expect, it } from 'vitest';
import { formatDate, formatMedia, formatRub, formatWords, mediaTokens, plural, withMediaDecimals } from './format.ts';

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

  it('are rewritten inside a description line', () => {
    expect(withMediaDecimals('30 медиа токенов в месяц')).toBe('30,0 медиа токена в месяц');
    expect(withMediaDecimals('+50 медиа токенов')).toBe('+50,0 медиа токена');
    expect(plain(withMediaDecimals('1 000 медиа токенов'))).toBe('1 000,0 медиа токена');
    expect(withMediaDecimals('100 000 слов в месяц')).toBe('100 000 слов в месяц');
  });
});
