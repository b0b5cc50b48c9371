import type { ChatMessageInput } from '../types.ts';
import { hashText, plural, shorten } from './demo-text.ts';

const pick = <T>(items: readonly T[], seed: number, salt: number): T => items[(((seed >>> salt) ^ salt) >>> 0) % items.length] as T;

const QUESTION_INTROS = [
  'Хороший вопрос: «{q}». Попробую ответить по существу.',
  'Вы спрашиваете: «{q}». Вот как я это вижу.',
  'Итак, «{q}» — давайте разберёмся по порядку.',
  'Понял вас: «{q}». Коротко изложу главное.',
  'Отвечаю на вопрос «{q}».',
] as const;

const STATEMENT_INTROS = [
  'Вы написали: «{q}». Вот что могу сказать.',
  'Принято: «{q}». Давайте посмотрим, что здесь важно.',
  '«{q}» — интересная тема. Поделюсь мыслями.',
  'Записал: «{q}». Вот мой взгляд.',
] as const;

const BODIES = [
  'Если коротко, многое зависит от контекста: от ваших целей, сроков и того, что уже сделано. Начните с самого простого шага, проверьте результат и двигайтесь дальше небольшими итерациями — так проще вовремя заметить ошибку.',
  'Главное здесь — чётко сформулировать, какой результат вы хотите получить. Когда цель понятна, задача распадается на несколько небольших шагов, и каждый из них уже не выглядит сложным.',
  'Я бы посмотрел на это с двух сторон: что даст результат быстрее всего и что окажется надёжнее в долгую перспективу. Обычно разумный компромисс — начать с простого решения и улучшать его по мере необходимости.',
  'Стоит опереться на проверенные источники и собственный опыт. Сравните несколько вариантов, запишите плюсы и минусы каждого — и выбор станет заметно очевиднее.',
] as const;

const REQUEST_INTROS = [
  'Хорошо, задача понятна: «{q}». Вот что получилось.',
  'Сделаю: «{q}».',
  'Берусь: «{q}». Смотрите, что предлагаю.',
] as const;

/** Requests («Напиши…», «Составь…») get their own openings, not «you asked». */
const REQUEST = /^(пожалуйста,?\s+)?(напиши|покажи|дай|составь|сделай|придумай|объясни|расскажи|переведи|сократи|помоги|подскажи|сгенерируй|создай|опиши|предложи|перечисли)/iu;

const LIST_INTROS = ['Вот с чего можно начать:', 'Предлагаю такой план:', 'Несколько пунктов, которые стоит учесть:'] as const;

const LIST_ITEMS = [
  '**Определите цель.** Сформулируйте одним предложением, что должно получиться в итоге.',
  '**Соберите исходные данные.** Всё, что уже известно, сэкономит время на следующих шагах.',
  '**Разбейте задачу на части.** Небольшие шаги легче планировать и проверять.',
  '**Начните с простого.** Первая рабочая версия важнее идеальной.',
  '**Проверьте результат.** Сравните его с целью и при необходимости поправьте план.',
  '**Попросите обратную связь.** Свежий взгляд часто замечает то, что пропустили вы.',
  '**Запишите выводы.** Короткие заметки пригодятся, когда задача повторится.',
] as const;

const OUTROS = [
  'Если нужно подробнее — уточните, что для вас важнее всего.',
  'Надеюсь, это поможет. Спрашивайте, если что-то осталось непонятным.',
  'Могу развить любую из этих мыслей — просто напишите, какую.',
] as const;

const DEMO_NOTE = '_Это ответ демо-режима: он составлен по шаблону, без обращения к нейросети._';

type CodeLanguage = 'python' | 'typescript' | 'javascript' | 'sql' | 'bash';

const LANGUAGE_NAMES: Record<CodeLanguage, string> = { python: 'Python', typescript: 'TypeScript', javascript: 'JavaScript', sql: 'SQL', bash: 'Bash' };

function detectLanguage(q: string): CodeLanguage {
  if (/\bsql\b|запрос к баз|postgres|mysql/i.test(q)) return 'sql';
  if (/\bbash\b|shell|терминал|консол/i.test(q)) return 'bash';
  if (/typescript|\bts\b/i.test(q)) return 'typescript';
  if (/javascript|\bjs\b|node/i.test(q)) return 'javascript';
  return 'python';
}

/** A short, runnable sample in that language; `quoted` is the question, safe inside a double-quoted string. */
function codeSample(lang: CodeLanguage, quoted: string): string {
  switch (lang) {
    case 'python':
      return [
        'def count_words(text: str) -> dict[str, int]:',
        '    """Считает, сколько раз встречается каждое слово."""',
        '    counts: dict[str, int] = {}',
        '    for word in text.lower().split():',
        '        counts[word] = counts.get(word, 0) + 1',
        '    return counts',
        '',
        '',
        `print(count_words("${quoted}"))`,
      ].join('\n');
    case 'typescript':
      return [
        'function countWords(text: string): Map<string, number> {',
        '  const counts = new Map<string, number>();',
        '  for (const word of text.toLowerCase().split(/\\s+/).filter(Boolean)) {',
        '    counts.set(word, (counts.get(word) ?? 0) + 1);',
        '  }',
        '  return counts;',
        '}',
        '',
        `console.log(countWords("${quoted}"));`,
      ].join('\n');
    case 'javascript':
      return [
        'function countWords(text) {',
        '  const counts = {};',
        '  for (const word of text.toLowerCase().split(/\\s+/).filter(Boolean)) {',
        '    counts[word] = (counts[word] ?? 0) + 1;',
        '  }',
        '  return counts;',
        '}',
        '',
        `console.log(countWords("${quoted}"));`,
      ].join('\n');
    case 'sql':
      return [
        '-- Сколько заказов в каждой категории за последние 30 дней',
        'SELECT category, COUNT(*) AS total',
        'FROM orders',
        "WHERE created_at >= CURRENT_DATE - INTERVAL '30 days'",
        'GROUP BY category',
        'ORDER BY total DESC;',
      ].join('\n');
    case 'bash':
      return ['#!/usr/bin/env bash', 'set -euo pipefail', '', 'for file in *.txt; do', '  echo "$file: $(wc -w < "$file") слов"', 'done'].join('\n');
  }
}

const IMAGE_FORMS = ['изображение', 'изображения', 'изображений'] as const;

/**
 * The demo's answer to a conversation, deterministic: templates are picked by a hash of the
 * last user message, which is quoted; a list or a code block is added when it asks for one
 * (so Markdown rendering can be seen), a greeting or thanks gets a short reply, attached
 * images are acknowledged with their count, and an earlier question is recalled.
 */
export function composeDemoAnswer(messages: readonly ChatMessageInput[]): string {
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1);
  const question = last?.text.replace(/\s+/g, ' ').trim() ?? '';
  const imageCount = last?.images?.length ?? 0;
  if (!question && imageCount === 0) return `Напишите вопрос или задачу — и я отвечу.\n\n${DEMO_NOTE}`;

  const seed = hashText(question);
  const lower = question.toLowerCase();
  const quote = shorten(question.replace(/[«»]/g, '"'), 80);
  const paragraphs: string[] = [];

  if (imageCount > 0) {
    paragraphs.push(
      `Вы приложили ${imageCount} ${plural(imageCount, IMAGE_FORMS)}. В демо-режиме я не анализирую содержимое картинок, но вижу, что ${imageCount === 1 ? 'оно есть' : 'они есть'}.`,
    );
  }

  const isGreeting = /^(привет|здравствуй|добрый день|добрый вечер|доброе утро|hello\b|hi\b|хай(?!\p{L}))/iu.test(lower);
  const isThanks = /спасибо|благодарю/.test(lower);
  if (question && isGreeting && question.length < 60) {
    paragraphs.push('Здравствуйте! Я демо-модель Нейростудии. Задайте вопрос — например, попросите составить список идей или написать небольшой пример кода, и я покажу, как выглядит ответ.');
  } else if (question && isThanks && question.length < 60) {
    paragraphs.push('Пожалуйста! Рад был помочь. Если появятся ещё вопросы — пишите.');
  } else if (question) {
    const intros = REQUEST.test(question) ? REQUEST_INTROS : question.endsWith('?') ? QUESTION_INTROS : STATEMENT_INTROS;
    paragraphs.push(pick(intros, seed, 0).replace('{q}', quote));

    const earlier = users.slice(0, -1).findLast((m) => m.text.trim() !== '');
    if (earlier) paragraphs.push(`Помню, что раньше вы спрашивали: «${shorten(earlier.text.replace(/[«»]/g, '"'), 60)}». Учту это в ответе.`);

    const wantsCode = /код|функци|скрипт|программ|python|питон|javascript|typescript|\bjs\b|\bsql\b|\bbash\b|```/i.test(lower);
    const wantsList = /список|перечисл|пункт|шаг|вариант|иде[июяй]|совет|рекомендац|план|чек-?лист|плюс|минус|преимуществ|недостат/i.test(lower);
    if (wantsCode) {
      const lang = detectLanguage(lower);
      const safe = shorten(question, 60).replace(/[\\"`$]/g, '');
      paragraphs.push(`Вот небольшой пример на ${LANGUAGE_NAMES[lang]}, который можно взять за основу:`);
      paragraphs.push(`\`\`\`${lang}\n${codeSample(lang, safe)}\n\`\`\``);
      paragraphs.push('Это шаблон: подставьте свои данные и добавьте обработку ошибок под вашу задачу.');
    } else if (wantsList) {
      const start = seed % LIST_ITEMS.length;
      const count = 3 + (seed % 2);
      const items = Array.from({ length: count }, (_, i) => LIST_ITEMS[(start + i) % LIST_ITEMS.length] ?? '');
      paragraphs.push(`${pick(LIST_INTROS, seed, 3)}\n\n${items.map((item, i) => `${i + 1}. ${item}`).join('\n')}`);
    } else {
      paragraphs.push(pick(BODIES, seed, 5));
    }
    paragraphs.push(pick(OUTROS, seed, 7));
  } else {
    paragraphs.push('Опишите словами, что нужно сделать с картинками, — и я отвечу.');
  }
  paragraphs.push(DEMO_NOTE);
  return paragraphs.join('\n\n');
}

/** The answer cut into the pieces a stream sends: each word with the whitespace after it. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
