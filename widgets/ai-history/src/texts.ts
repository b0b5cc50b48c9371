import type { Generation } from '@app/contracts/generation';

/** Which runs a list shows: the page's type, or text runs under «Тексты» (`/ai-history?type=text`). */
export type HistoryKind = 'image' | 'video' | 'text';

/** The tabs of the history: each is a page of its own (a link), so a reload or a shared link shows the same list. */
export const HISTORY_TABS: readonly { kind: HistoryKind; label: string; href: string }[] = [
  { kind: 'image', label: 'Изображения', href: '/ai-history' },
  { kind: 'video', label: 'Видео', href: '/ai-history-video' },
  { kind: 'text', label: 'Тексты', href: '/ai-history?type=text' },
];

export const STATUS_LABELS: Record<Generation['status'], string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  succeeded: 'Готово',
  failed: 'Ошибка',
  cancelled: 'Отменено',
};

/** What the history says besides the contract's `GENERATION_TEXTS`. */
export const TEXTS = {
  title: 'История генераций',
  tabs: 'Тип генераций',
  cancel: 'Отменить',
  download: 'Скачать',
  open: 'Открыть',
  copy: 'Копировать',
  copied: 'Скопировано',
  copyFailed: 'Не удалось скопировать',
  close: 'Закрыть',
  prompt: 'Запрос',
  cancelled: 'Генерация отменена до запуска',
  /** The cost of a failed or cancelled run: its held price came back. */
  notCharged: 'Не списано',
  queuedHint: 'Ждёт своей очереди — отменить можно, пока она не началась',
  runningHint: 'Результат появится здесь автоматически',
  previous: 'Предыдущий результат',
  next: 'Следующий результат',
} as const;

/** The list's words by kind: the create button, the empty state and the full view. */
export const KIND_TEXTS: Record<HistoryKind, { create: string; emptyTitle: string; emptyText: string; result: string }> = {
  image: {
    create: 'Создать изображение',
    emptyTitle: 'Здесь появятся ваши изображения',
    emptyText: 'Выберите продукт в каталоге, опишите идею — и готовая картинка сохранится в истории.',
    result: 'Изображение',
  },
  video: {
    create: 'Создать видео',
    emptyTitle: 'Здесь появятся ваши видео',
    emptyText: 'Выберите продукт в каталоге, опишите сцену — ролик сохранится в истории, когда будет готов.',
    result: 'Видео',
  },
  text: {
    create: 'Создать текст',
    emptyTitle: 'Здесь появятся ваши тексты',
    emptyText: 'Выберите шаблон в каталоге, заполните поля — готовый текст сохранится в истории.',
    result: 'Текст',
  },
};
