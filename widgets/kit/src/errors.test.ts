import { describe, expect, it } from 'vitest';
import { errorMessage, errorMessages, fieldErrors, stripQuotes } from './errors.ts';

describe('error display (seed §8)', () => {
  it('removes the quotes around a message', () => {
    expect(errorMessages('"Неверный код"')).toEqual(['Неверный код']);
    expect(errorMessages("'Неверный код'")).toEqual(['Неверный код']);
    expect(errorMessages('«Неверный код»')).toEqual(['Неверный код']);
    expect(stripQuotes('  "Тариф не найден"  ')).toBe('Тариф не найден');
  });

  it('keeps quotes inside a message', () => {
    expect(errorMessages('Проверьте папку «Спам»')).toEqual(['Проверьте папку «Спам»']);
  });

  it('gives an object of messages field by field and joins it into one text', () => {
    const text = { email: ['Введите email'], password: ['Введите пароль', 'Пароль должен быть не короче 8 символов'] };
    expect(errorMessages(text)).toEqual(['Введите email', 'Введите пароль', 'Пароль должен быть не короче 8 символов']);
    expect(errorMessage(text)).toBe('Введите email Введите пароль Пароль должен быть не короче 8 символов');
    expect(fieldErrors(text)).toEqual(text);
  });

  it('reads a field whose message is a plain string', () => {
    expect(fieldErrors({ code: '"Неверный код"' })).toEqual({ code: ['Неверный код'] });
    expect(errorMessages({ code: 'Неверный код' })).toEqual(['Неверный код']);
  });

  it('reads a JSON string as the list it holds', () => {
    const json = JSON.stringify({ email: ['Введите корректный email'], token: ['Ссылка для сброса пароля недействительна или устарела'] });
    expect(errorMessages(json)).toEqual(['Введите корректный email', 'Ссылка для сброса пароля недействительна или устарела']);
    expect(fieldErrors(json)).toEqual({ email: ['Введите корректный email'], token: ['Ссылка для сброса пароля недействительна или устарела'] });
    expect(errorMessages('["Первая ошибка", "\\"Вторая ошибка\\""]')).toEqual(['Первая ошибка', 'Вторая ошибка']);
  });

  it('treats text that only looks like JSON as a message', () => {
    expect(errorMessages('{не json')).toEqual(['{не json']);
  });

  it('shows «Произошла ошибка» when the shape is unknown', () => {
    for (const text of [undefined, null, 42, true, {}, [], '', '""', { code: 42 }, [null]]) {
      expect(errorMessages(text)).toEqual(['Произошла ошибка']);
    }
    expect(errorMessage(undefined)).toBe('Произошла ошибка');
  });

  it('has no per-field messages for a single message or a list', () => {
    expect(fieldErrors('Неверный код')).toEqual({});
    expect(fieldErrors(['Неверный код'])).toEqual({});
    expect(fieldErrors(null)).toEqual({});
  });
});
