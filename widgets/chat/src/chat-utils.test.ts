import { describe, expect, it } from 'vitest';
import { ApiError } from '@app/kit';
import { cutTitle, imageProblem, modelChoices, sendFailure } from './chat-utils.ts';
import { MODELS } from './fixtures.ts';

describe('cutTitle (seed §9)', () => {
  it('keeps titles of up to 20 characters and cuts longer ones to 20 plus «…»', () => {
    expect(cutTitle('Письмо клиенту')).toBe('Письмо клиенту');
    expect(cutTitle('Ровно двадцать симв.')).toBe('Ровно двадцать симв.');
    expect(cutTitle('Двадцать один символ!')).toBe('Двадцать один символ…');
    expect(cutTitle('План статьи о здоровом сне')).toBe('План статьи о здоров…');
    // Characters, not UTF-16 units: an emoji counts once.
    expect(cutTitle('😀'.repeat(25))).toBe(`${'😀'.repeat(20)}…`);
  });
});

describe('modelChoices', () => {
  it('one choice per model and parameter; a model without parameters is one choice', () => {
    expect(modelChoices(MODELS).map((c) => [c.key, c.label])).toEqual([
      ['11:balanced', 'GPT-4o mini · Сбалансированно'],
      ['11:creative', 'GPT-4o mini · Творчески'],
      ['12:precise', 'GPT-4o · Точно'],
      ['13:', 'Демо'],
    ]);
  });
});

describe('sendFailure (seed §8)', () => {
  it('a failed reply: the server’s message, or «Ошибка при выполнении запроса»', () => {
    expect(sendFailure(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Сервис временно недоступен'))).toEqual({ kind: 'message', message: 'Сервис временно недоступен' });
    expect(sendFailure(new ApiError(500, undefined, 'Произошла ошибка'))).toEqual({ kind: 'message', message: 'Ошибка при выполнении запроса' });
  });
  it('a call that throws: «Ошибка при отправке»', () => {
    expect(sendFailure(new ApiError(0, 'NETWORK', 'Нет соединения'))).toEqual({ kind: 'message', message: 'Ошибка при отправке' });
    expect(sendFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'message', message: 'Ошибка при отправке' });
  });
  it('402 is the too-few-words panel; per-field messages stay per field', () => {
    expect(sendFailure(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов'))).toEqual({ kind: 'tooFewWords', message: 'Недостаточно токенов' });
    expect(sendFailure(new ApiError(400, 'VALIDATION', { message: ['Введите сообщение'] }))).toEqual({ kind: 'fields', fields: { message: ['Введите сообщение'] }, message: null });
  });
});

describe('imageProblem', () => {
  const file = (bytes: number[], name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });
  it('accepts PNG and JPEG by type and first bytes', async () => {
    expect(await imageProblem(file([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], 'a.png', 'image/png'))).toBeNull();
    expect(await imageProblem(file([0xff, 0xd8, 0xff, 0xe1], 'b.jpg', 'image/jpeg'))).toBeNull();
  });
  it('refuses another declared type, or bytes that are not PNG or JPEG', async () => {
    expect(await imageProblem(file([0x47, 0x49, 0x46], 'c.gif', 'image/gif'))).toMatch(/не PNG и не JPEG/);
    expect(await imageProblem(file([0x25, 0x50, 0x44, 0x46], 'd.png', 'image/png'))).toMatch(/не PNG и не JPEG/);
  });
});
