import { describe, expect, it } from 'vitest';
import { descriptionParts, withMediaAgreement } from './plan.ts';

/** Intl separates thousands with a no-break space; compare as plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('a plan’s description lines', () => {
  it('«медиа токен…» in a line staff typed agrees with the number as written, which stays as typed', () => {
    expect(withMediaAgreement('300 медиа токенов')).toBe('300 медиа токенов');
    expect(withMediaAgreement('30 медиа токена в месяц')).toBe('30 медиа токенов в месяц');
    expect(withMediaAgreement('+50 медиа токенов')).toBe('+50 медиа токенов');
    expect(withMediaAgreement('1 медиа токенов')).toBe('1 медиа токен');
    expect(withMediaAgreement('21 медиа токенов')).toBe('21 медиа токен');
    expect(withMediaAgreement('2 медиа токенов, 11 медиа токена')).toBe('2 медиа токена, 11 медиа токенов');
    expect(withMediaAgreement('2,5 медиа токенов')).toBe('2,5 медиа токена');
    expect(plain(withMediaAgreement('1\u00a0000 медиа токен'))).toBe('1 000 медиа токенов');
    expect(withMediaAgreement('100 000 слов в месяц')).toBe('100 000 слов в месяц');
  });

  it('split at their icon markers', () => {
    expect(descriptionParts('[[media]] 300 медиа токенов в месяц')).toEqual([
      { type: 'icon', icon: 'media' },
      { type: 'text', text: ' 300 медиа токенов в месяц' },
    ]);
  });
});
