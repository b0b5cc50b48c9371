import { describe, expect, it } from 'vitest';
import { listHref, parseRoute, productHref } from './routes.ts';

describe('the widget’s routes', () => {
  it('reads the list with its filter', () => {
    expect(parseRoute('/ai-products', '')).toEqual({ kind: 'list', type: null });
    expect(parseRoute('/ai-products/', '?type=video')).toEqual({ kind: 'list', type: 'video' });
    expect(parseRoute('/ai-products', '?type=image')).toEqual({ kind: 'list', type: 'image' });
    expect(parseRoute('/ai-products', '?type=audio')).toEqual({ kind: 'list', type: null });
  });

  it('reads a product’s screen of every variant', () => {
    for (const variant of ['img', 'img_2', 'img_3', 'img_4', 'mask', 'text_1', 'video'] as const) {
      expect(parseRoute(`/ai-products/${variant}/42`, '')).toEqual({ kind: 'product', variant, id: 42 });
    }
  });

  it('anything else is unknown', () => {
    for (const path of ['/ai-products/img', '/ai-products/img/0', '/ai-products/img/abc', '/ai-products/nope/1', '/ai-products/img/1/2', '/ai-products/img/9999999999999']) {
      expect(parseRoute(path, '')).toEqual({ kind: 'unknown' });
    }
  });

  it('writes the addresses it reads', () => {
    expect(listHref(null)).toBe('/ai-products');
    expect(listHref('video')).toBe('/ai-products?type=video');
    expect(parseRoute(productHref({ variant: 'mask', id: 5 }), '')).toEqual({ kind: 'product', variant: 'mask', id: 5 });
  });
});
