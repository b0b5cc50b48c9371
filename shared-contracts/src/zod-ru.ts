import { z } from 'zod';

/**
 * Russian fallback messages for schema errors that carry no message of their own.
 * Field schemas that users fill in set explicit messages; this covers the rest
 * (hostile or malformed input), so no English or technical text reaches a user.
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined ? 'Обязательное поле' : 'Неверный формат значения';
      case 'too_small':
        return issue.origin === 'string' ? `Не короче ${String(issue.minimum)} символов` : `Не меньше ${String(issue.minimum)}`;
      case 'too_big':
        return issue.origin === 'string' ? `Не длиннее ${String(issue.maximum)} символов` : `Не больше ${String(issue.maximum)}`;
      case 'invalid_format':
        return issue.format === 'email' ? 'Введите корректный email' : 'Неверный формат значения';
      case 'invalid_value':
        return 'Недопустимое значение';
      case 'unrecognized_keys':
        return 'Лишние поля в запросе';
      default:
        return 'Неверное значение';
    }
  },
});

export { z };
