import { describe, expect, it } from 'vitest';
import { changedFields } from './record.tsx';
import { paramPrice } from './texts.ts';

describe('helpers', () => {
  it('a change holds only the fields that differ, whatever the order of keys', () => {
    expect(changedFields({ a: 1, b: { x: 1, y: 2 }, c: 'z' }, { a: 1, b: { y: 2, x: 1 }, c: 'w' })).toEqual({ c: 'w' });
  });

  it('prices as the catalogue computes them', () => {
    const model = { kind: 'video' as const, words_per_token: 1, max_output_tokens: 100, media_price: 2, media_per_second: 0.5 };
    expect(paramPrice(model, { value: '8', label: '8 с', provider: { duration: 8 } })).toBe('4,0 медиа');
    expect(paramPrice(model, undefined)).toBe('2,0 медиа');
    expect(paramPrice({ ...model, kind: 'image', media_price: 1.5 }, { value: 'x', label: 'x', provider: { n: 3 } })).toBe('4,5 медиа (3 изобр.)');
  });
});
