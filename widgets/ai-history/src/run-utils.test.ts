import { describe, expect, it } from 'vitest';
import { costLabel, createUrl, failureReason, kindFromSearch, pageFromSearch, statusLabel } from './run-utils.ts';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('run-utils', () => {
  it('costs in Russian: media tokens with one decimal, words with their plural', () => {
    expect(costLabel({ wallet: 'media', amount: 2.5 })).toBe('2,5 медиа токена');
    expect(costLabel({ wallet: 'media', amount: 1 })).toBe('1,0 медиа токена');
    expect(costLabel({ wallet: 'words', amount: 1 })).toBe('1 слово');
    expect(costLabel({ wallet: 'words', amount: 3 })).toBe('3 слова');
    expect(costLabel({ wallet: 'words', amount: 120 })).toBe('120 слов');
    expect(plain(costLabel({ wallet: 'words', amount: 1211 }))).toBe('1 211 слов');
  });

  it('the badge shows the progress of a running run once there is any', () => {
    expect(statusLabel({ status: 'running', progress: 37 })).toBe('Выполняется 37%');
    expect(statusLabel({ status: 'running', progress: 140 })).toBe('Выполняется 100%');
    expect(statusLabel({ status: 'running', progress: 0 })).toBe('Выполняется');
    expect(statusLabel({ status: 'queued', progress: 0 })).toBe('В очереди');
  });

  it('the reason of a failure without the sentence about the tokens; a failure without one reads as the general one', () => {
    expect(failureReason({ error: 'Не удалось выполнить генерацию. Токены возвращены на баланс' })).toBe('Не удалось выполнить генерацию');
    expect(failureReason({ error: 'Запрос отклонён модерацией' })).toBe('Запрос отклонён модерацией');
    expect(failureReason({ error: null })).toBe('Не удалось выполнить генерацию');
  });

  it('reads the kind and page of the address; «Создать» leads to the kind’s catalogue', () => {
    expect(kindFromSearch('image', '?type=text')).toBe('text');
    expect(kindFromSearch('image', '')).toBe('image');
    expect(kindFromSearch('video', '?type=text')).toBe('video');
    expect(pageFromSearch('?page=4')).toBe(4);
    expect(pageFromSearch('?page=-1')).toBe(1);
    expect(pageFromSearch('?page=x')).toBe(1);
    expect(createUrl('/ai-products', 'image')).toBe('/ai-products');
    expect(createUrl('/ai-products', 'video')).toBe('/ai-products?type=video');
    expect(createUrl('/ai-products?from=history', 'text')).toBe('/ai-products?from=history&type=text');
  });
});
