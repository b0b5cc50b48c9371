import { describe, expect, it } from 'vitest';
import { IdSchema, isStorableText, MAX_ID, toStorableText } from './fields.ts';
import { z } from './zod-ru.ts';

describe('text the database can keep', () => {
  it('refuses NUL and lone surrogates, keeps whole emoji and everything else', () => {
    for (const ok of ['', 'Привет', '😀 и 👍🏽', 'a\ud83d\ude00b', '\ufffd', '\u202e']) expect({ ok, storable: isStorableText(ok) }).toEqual({ ok, storable: true });
    for (const bad of ['a\u0000b', '\ud800', 'x\udfff', '\ud83d', 'ok\ud83d', '\ude00ok', '\udc00\ud800']) expect({ bad, storable: isStorableText(bad) }).toEqual({ bad, storable: false });
  });

  it('cleans as the server always did: NUL out first, then each lone surrogate as U+FFFD', () => {
    expect(toStorableText('Имя\u0000 \ud83d')).toBe('Имя \ufffd');
    expect(toStorableText('\ud83d\u0000\ude00')).toBe('😀');
    expect(toStorableText('a\udc00\ud800b😀')).toBe('a\ufffd\ufffdb😀');
    expect(toStorableText('Привет 😀')).toBe('Привет 😀');
  });
});

describe('IdSchema', () => {
  it('takes ids up to 2147483647 and refuses anything past 32 bits', () => {
    expect(z.safeParse(IdSchema, '2147483647')).toMatchObject({ success: true, data: MAX_ID });
    for (const bad of ['2147483648', '9007199254740993', '0', '-1', '1.5', 'NaN', '']) expect({ bad, ok: z.safeParse(IdSchema, bad).success }).toEqual({ bad, ok: false });
  });
});
