import { describe, expect, it } from 'vitest';
import { ResetPasswordBodySchema } from '@app/contracts/browser';
import { ApiError } from './api.ts';
import { apiFormErrors, issuesToFieldErrors, partitionFieldErrors } from './form-errors.ts';

describe('form errors', () => {
  it('reads schema issues per field with the contract’s messages', () => {
    const parsed = ResetPasswordBodySchema.safeParse({ password: '', password_confirmation: '', token: 'tok', email: 'anna@example.ru' });
    expect(parsed.success).toBe(false);
    expect(issuesToFieldErrors(parsed.error?.issues ?? [])).toEqual({ password: ['Введите пароль'], password_confirmation: ['Повторите пароль'] });
  });

  it('keeps messages of the form’s fields beside them and lists the others', () => {
    const split = partitionFieldErrors({ password: ['Введите пароль'], token: ['Ссылка недействительна'], email: ['Ссылка недействительна'] }, ['password']);
    expect(split).toEqual({ fieldErrors: { password: ['Введите пароль'] }, formErrors: ['Ссылка недействительна'] });
  });

  it('lists a single message, a JSON list and an unknown failure', () => {
    expect(apiFormErrors(new ApiError(422, 'RESET_TOKEN_INVALID', 'Ссылка для сброса пароля недействительна или устарела'), ['password'])).toEqual({
      fieldErrors: {},
      formErrors: ['Ссылка для сброса пароля недействительна или устарела'],
    });
    expect(apiFormErrors(new ApiError(400, undefined, '["Первая ошибка","Вторая ошибка"]'), [])).toEqual({ fieldErrors: {}, formErrors: ['Первая ошибка', 'Вторая ошибка'] });
    expect(apiFormErrors(new Error('boom'), [])).toEqual({ fieldErrors: {}, formErrors: ['Произошла ошибка'] });
  });

  it('puts field messages of a JSON string beside the fields', () => {
    const error = new ApiError(400, 'VALIDATION', JSON.stringify({ email: ['Введите корректный email'] }));
    expect(apiFormErrors(error, ['email'])).toEqual({ fieldErrors: { email: ['Введите корректный email'] }, formErrors: [] });
  });
});
