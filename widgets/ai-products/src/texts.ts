import { catalogPriceLabel, mediaTokens, wordsAmount } from '@app/kit';
import type { Generation, ProductPrice, ProductVariant } from '@app/contracts/generation';

export const TEXTS = {
  title: 'Генерации',
  lead: 'Картинки, видео и тексты по готовым сценариям. Цена видна до запуска, токены списываются только за результат.',
  all: 'Все',
  images: 'Изображения',
  videos: 'Видео',
  texts: 'Тексты',
  history: 'История генераций',
  empty: 'В этом разделе пока нет продуктов',
  emptyHint: 'Загляните в другие разделы каталога.',
  back: 'Все продукты',
  notFound: 'Продукт не найден',
  notFoundHint: 'Возможно, его убрали из каталога. Выберите другой.',
  demo: 'Демо',
  open: 'Открыть',
  example: 'Пример результата',
  style: 'Стиль примера',
  param: 'Параметры',
  price: 'Стоимость',
  textPriceNote: 'Это максимум: спишем по факту — за ваш запрос и ответ модели, обычно меньше. Длинный текст в полях поднимает максимум.',
  balance: 'На балансе',
  run: 'Создать',
  running: 'Запускаем…',
  again: 'Ещё раз',
  edit: 'Изменить запрос',
  cancel: 'Отменить',
  cancelRunning: 'Ролик можно отменить и сейчас: спишем только за уже выполненную часть, остальное вернём на баланс.',
  download: 'Скачать',
  copy: 'Копировать',
  copied: 'Скопировано',
  queued: 'В очереди',
  inProgress: 'Выполняется',
  done: 'Готово',
  failed: 'Ошибка',
  cancelled: 'Отменено',
  resultHint: 'Результат появится здесь. Генерация продолжится, даже если закрыть страницу, — он будет в истории.',
  imageRequired: 'Загрузите изображение',
  maskRequired: 'Закрасьте область, которую нужно изменить',
  promptRequired: 'Опишите, что нужно сделать',
  fieldRequired: 'Заполните поле',
  imageType: 'Подходят только изображения PNG, JPEG или WebP',
  imageTooBig: 'Изображение больше 15 МБ',
  imageBroken: 'Не удалось открыть изображение',
} as const;

/** What the prompt box of each variant is called. */
export const PROMPT_LABELS: Partial<Record<ProductVariant, { label: string; placeholder: string }>> = {
  img: { label: 'Описание', placeholder: 'Например: рыжий кот в очках читает газету в уютном кафе, акварель' },
  img_2: { label: 'Что изменить', placeholder: 'Например: сделай фон летним пляжем' },
  mask: { label: 'Что нарисовать в закрашенной области', placeholder: 'Например: красная шляпа' },
  video: { label: 'Описание ролика', placeholder: 'Например: волны накатывают на берег на закате' },
};

/** What the image input of each variant is called. */
export const IMAGE_LABELS: Partial<Record<ProductVariant, string>> = {
  img_2: 'Ваш образец',
  img_4: 'Ваше фото',
  mask: 'Изображение',
  video: 'Картинка для первого кадра (необязательно)',
};

/** An amount of a wallet: «2,5 медиа токена» or «120 слов». */
export function amountLabel(wallet: 'words' | 'media', amount: number): string {
  return wallet === 'media' ? mediaTokens(amount) : wordsAmount(amount);
}

/**
 * A price as the screen shows it (`catalogPriceLabel`, the same as the admin panel's list): the
 * run holds the bound of the prompt it really sends (with the fields) and is charged what the
 * model counted.
 */
export const priceLabel = (price: ProductPrice) => catalogPriceLabel(price);

/** A run's status in a few words. */
export function statusLabel(run: Pick<Generation, 'status' | 'progress'>): string {
  switch (run.status) {
    case 'queued':
      return TEXTS.queued;
    case 'running':
      return `${TEXTS.inProgress} · ${String(run.progress)}%`;
    case 'succeeded':
      return TEXTS.done;
    case 'failed':
      return TEXTS.failed;
    case 'cancelled':
      return TEXTS.cancelled;
  }
}

export const isActive = (run: Pick<Generation, 'status'>) => run.status === 'queued' || run.status === 'running';
