import type { ChatListItem, ChatMessage, ChatModel, ChatSendResult, User } from '@app/contracts/browser';

/** Models like the seeded ones: the offline demo and two with parameter choices. */
export const MODELS: ChatModel[] = [
  {
    id: 1,
    ai_models_id: 11,
    name: 'GPT-4o mini',
    provider: 'OpenAI',
    words_per_1000_tokens: 750,
    max_words: 3000,
    setting: { model: { params: [{ value: 'balanced', label: 'Сбалансированно' }, { value: 'creative', label: 'Творчески' }] } },
  },
  { id: 2, ai_models_id: 12, name: 'GPT-4o', provider: 'OpenAI', words_per_1000_tokens: 3000, max_words: 12_000, setting: { model: { params: [{ value: 'precise', label: 'Точно' }] } } },
  { id: 3, ai_models_id: 13, name: 'Демо', provider: 'Демо', words_per_1000_tokens: 100, max_words: 500, setting: { model: { params: [] } } },
];

const at = (minutes: number) => new Date(Date.UTC(2025, 4, 20, 12, 0) - minutes * 60_000).toISOString();

/** Chats newest first; some titles longer than the 20 characters the sidebar shows. */
export const CHATS: ChatListItem[] = [
  { id: 41, text: 'План статьи о здоровом сне для блога клиники', updated_at: at(5) },
  { id: 40, text: 'Письмо клиенту', updated_at: at(60) },
  { id: 39, text: 'Как работает нейросеть', updated_at: at(180) },
  { id: 38, text: 'SQL: отчёт по продажам за квартал с разбивкой по регионам', updated_at: at(600) },
  { id: 37, text: 'Идеи подарков', updated_at: at(1440) },
];

/** `n` chats with varied titles (a long list). */
export const manyChats = (n: number, from = 100): ChatListItem[] =>
  Array.from({ length: n }, (_, i) => ({ id: from - i, text: i % 3 === 0 ? `Разговор номер ${String(i + 1)} о планах на следующую неделю` : `Чат ${String(i + 1)}`, updated_at: at(i * 30) }));

export const ANSWER_MARKDOWN = [
  'Вот короткий план и пример запроса.',
  '',
  '## План',
  '1. **Вступление** — почему сон важен.',
  '2. Режим: *одно и то же время* отхода ко сну.',
  '3. ~~Кофе на ночь~~ Вечерние привычки.',
  '',
  '| Возраст | Часов сна |',
  '|---|---|',
  '| 18–25 | 7–9 |',
  '| 26–64 | 7–9 |',
  '| 65+ | 7–8 |',
  '',
  '```sql',
  'SELECT region, SUM(total) AS revenue',
  'FROM sales',
  "WHERE sold_at >= DATE '2025-01-01'",
  'GROUP BY region;',
  '```',
  '',
  '- [x] Собрать источники',
  '- [ ] Написать черновик',
].join('\n');

/** Everything an answer may hold: nested lists, verse, a quote, inline code, a link, a bare address, strikethrough, raw HTML (shown as text). */
export const RICH_MARKDOWN = [
  '### Что получилось',
  '',
  '- Первый пункт',
  '  - вложенный пункт',
  '  - ещё один',
  '- Второй пункт с `кодом` и [ссылкой](https://example.ru)',
  '',
  'Весна пришла, звенят ручьи,',
  'И солнце греет всё теплей.',
  '',
  '> Цитата из источника.',
  '',
  '<script>alert(1)</script><b>не жирный</b>',
  '',
  'Ссылка без разметки: https://example.ru/docs и ~~зачёркнутое~~.',
].join('\n');

/** An answer with code in several languages (highlighted), one the chat does not know and one with none (both plain). */
export const CODE_MARKDOWN = [
  'Вот как получить список заказов и показать его на странице.',
  '',
  '```ts',
  'interface Order {',
  '  id: number;',
  '  total: number; // в копейках',
  '}',
  '',
  'export async function loadOrders(userId: number): Promise<Order[]> {',
  '  const res = await fetch(`/api/orders?user=${userId}`);',
  "  if (!res.ok) throw new Error('Не удалось загрузить заказы');",
  '  return res.json();',
  '}',
  '```',
  '',
  'То же на Python:',
  '',
  '```python',
  'import requests',
  '',
  'def load_orders(user_id: int) -> list[dict]:',
  '    """Заказы пользователя, новые первыми."""',
  '    res = requests.get("https://shop.example.ru/api/orders", params={"user": user_id}, timeout=10)',
  '    res.raise_for_status()',
  '    return sorted(res.json(), key=lambda o: o["id"], reverse=True)',
  '```',
  '',
  'Запрос к базе:',
  '',
  '```sql',
  'SELECT id, total',
  'FROM orders',
  "WHERE user_id = 42 AND created_at >= now() - interval '30 days'",
  'ORDER BY id DESC',
  'LIMIT 20;',
  '```',
  '',
  '```bash',
  '# проверить из терминала',
  'curl -s "https://shop.example.ru/api/orders?user=42" | jq \'.[0]\'',
  '```',
  '',
  '```json',
  '{ "id": 1017, "total": 249000, "paid": true, "items": null }',
  '```',
  '',
  '```brainfuck',
  '++++++++[>++++[>++>+++<<-]>+<<-]>>.',
  '```',
  '',
  '```',
  'Итого: 3 заказа на 7 470 ₽',
  '```',
].join('\n');

let nextId = 500;
const message = (over: Partial<ChatMessage> & Pick<ChatMessage, 'role' | 'text'>): ChatMessage => ({
  id: nextId++,
  model: over.role === 'assistant' ? 'GPT-4o mini' : null,
  status: 'done',
  words: 0,
  images: [],
  created_at: at(10),
  ...over,
});

/** A data URL of a small picture (stories and tests need no server for thumbnails). */
export const PICTURE_URL =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="90"><rect width="120" height="90" fill="#c7d2fe"/><circle cx="38" cy="34" r="14" fill="#fde68a"/><path d="M0 90 45 48l25 24 18-14 32 32z" fill="#6366f1"/></svg>');

export const HISTORY: ChatMessage[] = [
  message({ id: 1, role: 'user', text: 'Составь план статьи о здоровом сне и пример SQL-запроса для отчёта' }),
  message({ id: 2, role: 'assistant', text: ANSWER_MARKDOWN, words: 1234 }),
  message({ id: 3, role: 'user', text: 'Что на этой картинке?', images: [{ id: 7, url: PICTURE_URL, name: 'пейзаж.png' }] }),
  message({ id: 4, role: 'assistant', text: 'На картинке схематичный пейзаж: солнце над горами.', words: 21, model: 'GPT-4o' }),
];

export const STOPPED: ChatMessage[] = [message({ id: 11, role: 'user', text: 'Расскажи длинную историю' }), message({ id: 12, role: 'assistant', text: 'Жил-был в далёком городе мастер часов. Каждое утро он', words: 42, status: 'stopped' })];

export const FAILED: ChatMessage[] = [message({ id: 21, role: 'user', text: 'Переведи текст на английский' }), message({ id: 22, role: 'assistant', text: '', words: 0, status: 'failed' })];

export const GENERATING: ChatMessage[] = [message({ id: 31, role: 'user', text: 'Напиши стихотворение о весне' }), message({ id: 32, role: 'assistant', text: 'Весна пришла, звенят ручьи,\nИ солнце греет', status: 'generating' })];

export const USER: User = { id: 5, email: 'anna@example.ru', email_confirmed: true, role: 'user', balances: { words: 48_250, media: 12.5 }, resend_in: 0 };

export const doneResult = (over: Partial<ChatSendResult> = {}): ChatSendResult => ({
  chat_id: 41,
  message: 'Готово',
  model: 'GPT-4o mini',
  message_id: 902,
  status: 'done',
  words: 3,
  balances: { words: 48_247, media: 12.5 },
  ...over,
});

/** A chat whose last answer was asked again: the second answer shown, the first reachable («Вариант 2 из 2»). */
export const REGENERATED: ChatMessage[] = [
  message({ id: 51, role: 'user', text: 'Придумай название для кофейни у моря' }),
  message({ id: 53, role: 'assistant', text: '«Бриз и зерно» — коротко, про море и кофе.', words: 180, model: 'GPT-4o', variants: [52, 53] }),
];
export const REGENERATED_FIRST: ChatMessage[] = [
  message({ id: 51, role: 'user', text: 'Придумай название для кофейни у моря' }),
  message({ id: 52, role: 'assistant', text: '«Морская чашка».', words: 90, variants: [52, 53] }),
];
