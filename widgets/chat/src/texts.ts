/** What the chat says besides the contract's `CHAT_TEXTS`. */
export const TEXTS = {
  chats: 'Чаты',
  chat: 'Чат',
  showMore: 'Показать ещё',
  olderMessages: 'Показать предыдущие сообщения',
  noChats: 'Здесь появятся ваши чаты',
  rename: 'Переименовать',
  remove: 'Удалить',
  renameChat: 'Переименовать чат',
  removeChat: 'Удалить чат',
  renameTitle: 'Переименовать чат',
  renameLabel: 'Название',
  save: 'Сохранить',
  cancel: 'Отмена',
  deleteTitle: 'Удалить чат?',
  deleteConfirm: 'Удалить',
  send: 'Отправить',
  stop: 'Остановить',
  stopped: 'Остановлено',
  generating: 'Пишет ответ…',
  attach: 'Прикрепить изображение',
  messageLabel: 'Сообщение',
  placeholder: 'Напишите сообщение…',
  hint: 'Enter — отправить, Shift+Enter — новая строка. До 2 изображений PNG или JPEG: кнопкой, вставкой или перетаскиванием.',
  modelLabel: 'Модель',
  modelPlaceholder: 'Выберите модель',
  dropHere: 'Отпустите, чтобы прикрепить изображение',
  emptyTitle: 'С чем помочь?',
  emptyText: 'Задайте вопрос, попросите написать текст или разобрать картинку — ответит выбранная модель.',
  copy: 'Копировать',
  copied: 'Скопировано',
  openChats: 'Открыть список чатов',
  closeChats: 'Закрыть список чатов',
  dismiss: 'Закрыть',
} as const;

/** Example requests of the empty chat: a click puts one into the composer. */
export const EXAMPLES = ['Объясни простыми словами, как работает нейросеть', 'Составь план статьи о здоровом сне', 'Напиши вежливое письмо клиенту о переносе сроков'] as const;

/** The answers' and messages' own buttons. */
export const MESSAGE_TEXTS = {
  copyAnswer: 'Копировать ответ',
  regenerate: 'Ответить заново',
  regenerateHint: 'Новый ответ модели, выбранной внизу; этот останется как вариант. Оплачивается как обычный ответ.',
  edit: 'Изменить',
  editLabel: 'Изменённое сообщение',
  editSend: 'Отправить',
  previous: 'Предыдущий вариант',
  next: 'Следующий вариант',
  variant: (n: number, of: number) => `Вариант ${String(n)} из ${String(of)}`,
  exportMd: 'Скачать .md',
  exportHint: 'Скачать чат в Markdown',
} as const;
