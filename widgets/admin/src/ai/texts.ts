import { MODEL_KIND_LABELS, PROVIDER_PROTOCOLS, type AdminAiModel, type ModelKindName, type ProviderProtocolName } from '@app/contracts/admin';
import { PRODUCT_VARIANTS, type ProductVariant } from '@app/contracts/generation';
import { formatMedia, formatWords } from '@app/kit';

/** What each variant's screen does, as the panel names it (PRODUCT.md). */
export const VARIANT_LABELS: Record<ProductVariant, string> = {
  img: 'Картинка по описанию',
  img_2: 'По образцу пользователя',
  img_3: 'Шаблон с полями (картинка)',
  img_4: 'Стиль примера на фото',
  mask: 'Замена части (маска)',
  text_1: 'Текст по шаблону с полями',
  video: 'Видео',
};

/** The same, short, for the list. */
export const VARIANT_SHORT: Record<ProductVariant, string> = {
  img: 'Текст → картинка',
  img_2: 'По образцу',
  img_3: 'Шаблон, картинка',
  img_4: 'Стиль примера',
  mask: 'Маска',
  text_1: 'Шаблон, текст',
  video: 'Видео',
};

export const PROTOCOL_LABELS: Record<ProviderProtocolName, string> = {
  openai: 'OpenAI-совместимый',
  replicate: 'Replicate',
  demo: 'Демо (офлайн)',
};

export const variantOptions = PRODUCT_VARIANTS.map((v) => ({ value: v, label: `${VARIANT_LABELS[v]} (${v})` }));
export const protocolOptions = PROVIDER_PROTOCOLS.map((p) => ({ value: p, label: PROTOCOL_LABELS[p] }));
export const kindLabel = (kind: ModelKindName) => MODEL_KIND_LABELS[kind];

type Priced = Pick<AdminAiModel, 'kind' | 'words_per_token' | 'max_output_tokens' | 'media_price' | 'media_per_second'>;
export type ModelParam = AdminAiModel['setting']['model']['params'][number];

const media = (n: number) => `${formatMedia(n)} медиа`;

/** A model's rates in a line: words per token for chat and text, media tokens per image, per generation or per second of video. */
export function modelRates(model: Priced): string {
  switch (model.kind) {
    case 'chat':
    case 'text':
      return `${formatWords(model.words_per_token)} сл. за токен`;
    case 'image':
      return `${media(model.media_price)} за изображение`;
    case 'video':
      return model.media_per_second > 0 ? `${media(model.media_price)} за ролик или ${media(model.media_per_second)} за секунду` : `${media(model.media_price)} за ролик`;
  }
}

/** Images a parameter asks for (`provider.n`), 1–4, as the server counts them. */
const imageCount = (param: ModelParam | undefined) => {
  const n = Number(param?.provider?.n ?? 1);
  return Number.isInteger(n) && n >= 1 && n <= 4 ? n : 1;
};

/** Seconds of video a parameter asks for (`provider.duration`), or null. */
const videoSeconds = (param: ModelParam | undefined) => {
  const seconds = Number(param?.provider?.duration);
  return Number.isFinite(seconds) && seconds > 0 && seconds <= 600 ? seconds : null;
};

/**
 * What one run with `param` costs on `model`, as the catalogue computes it (`runCost`): images
 * the price per image times `n`; video the price per second of `duration` where both are set,
 * else per generation; text the most the answer may cost (the prompt's words come on top;
 * `brief` leaves that note out).
 */
export function paramPrice(model: Priced, param: ModelParam | undefined, brief = false): string {
  if (model.kind === 'chat' || model.kind === 'text') {
    const tokens = Math.min(model.max_output_tokens, param?.max_output_tokens ?? Infinity);
    return `до ${formatWords(Math.ceil(tokens * model.words_per_token))} сл.${brief ? '' : ' за ответ + запрос'}`;
  }
  if (model.kind === 'video') {
    const seconds = videoSeconds(param);
    return media(seconds !== null && model.media_per_second > 0 ? Math.ceil(model.media_per_second * 10 * seconds) / 10 : model.media_price);
  }
  const n = imageCount(param);
  return `${media(model.media_price * n)}${n > 1 ? ` (${String(n)} изобр.)` : ''}`;
}
