import { config } from 'zod/mini';

/**
 * Russian fallback messages for schema errors that carry no message of their own.
 * Field schemas that users fill in set explicit messages; this covers the rest
 * (hostile or malformed input), so no English or technical text reaches a user.
 * zod's configuration is global (zod/mini and classic zod share it), so server and browser
 * both get these by importing this module; it imports only zod/mini, which the browser bundles
 * as far as it is used.
 */
config({
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
