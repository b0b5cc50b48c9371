import { CHAT_LIMITS, CHAT_TEXTS, UNKNOWN_ERROR_MESSAGE, type ChatModel } from '@app/contracts/browser';
import { ApiError } from '@app/kit';

/** Seed §9: a title longer than 20 characters is cut to 20 plus «…». */
export function cutTitle(title: string, length: number = CHAT_LIMITS.titleLength): string {
  const chars = Array.from(title.trim());
  return chars.length > length ? `${chars.slice(0, length).join('').trimEnd()}…` : chars.join('');
}

/** One choice of the combined model-and-parameter select. */
export interface ModelChoice {
  /** `<ai_models_id>:<param value>` */
  key: string;
  modelId: number;
  param: string | undefined;
  label: string;
  model: ChatModel;
}

/** Every model with each of its parameters (seed: one select of model and parameter); a model without parameters is one choice. */
export function modelChoices(models: readonly ChatModel[]): ModelChoice[] {
  return models.flatMap((model): ModelChoice[] => {
    const params = model.setting.model.params;
    if (params.length === 0) return [{ key: `${String(model.ai_models_id)}:`, modelId: model.ai_models_id, param: undefined, label: model.name, model }];
    return params.map((p) => ({ key: `${String(model.ai_models_id)}:${p.value}`, modelId: model.ai_models_id, param: p.value, label: `${model.name} · ${p.label}`, model }));
  });
}

/** Why an image cannot be attached, or null when it can. */
export type ImageProblem = string | null;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

async function headOf(file: Blob): Promise<Uint8Array> {
  const head = file.slice(0, 8);
  if (typeof head.arrayBuffer === 'function') return new Uint8Array(await head.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(head);
  });
}

export const IMAGE_TEXTS = {
  tooMany: `Не больше ${String(CHAT_LIMITS.maxImages)} изображений`,
  wrongType: (name: string) => `Файл «${name}» — не PNG и не JPEG. Можно прикрепить только изображения PNG или JPEG`,
  tooLarge: (name: string) => `Файл «${name}» больше ${String(Math.round(CHAT_LIMITS.imageMaxBytes / 1024 / 1024))} МБ`,
} as const;

/**
 * Checks an image before it is attached: PNG or JPEG by its declared type and by its first bytes
 * (the server decides by content too), and not over the size limit.
 */
export async function imageProblem(file: File): Promise<ImageProblem> {
  if (!(CHAT_LIMITS.imageTypes as readonly string[]).includes(file.type)) return IMAGE_TEXTS.wrongType(file.name);
  if (file.size > CHAT_LIMITS.imageMaxBytes) return IMAGE_TEXTS.tooLarge(file.name);
  const head = await headOf(file).catch(() => null);
  if (!head || !(startsWith(head, PNG) || startsWith(head, JPEG))) return IMAGE_TEXTS.wrongType(file.name);
  return null;
}

/** A failed schema check as one message per field (the first), as the server's `{field: [messages]}`. */
export function firstIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) fields[String(issue.path[0] ?? 'message')] ??= [issue.message];
  return fields;
}

/** What went wrong with a send, as the chat shows it (seed §8). */
/** `tooFewWords` is a 402, shown as its panel (which says so itself; the message serves `callFailure`). */
export type SendFailure = { kind: 'tooFewWords'; message: string } | { kind: 'fields'; fields: Record<string, string[]>; message: string | null } | { kind: 'message'; message: string };

/**
 * Seed §8: a failed chat call (an error reply or an `error` event) shows the server's message or
 * «Ошибка при выполнении запроса»; a call that throws (network, a bug) shows «Ошибка при
 * отправке». 402 is the too-few-words panel; per-field messages go beside the composer.
 */
export function sendFailure(err: unknown): SendFailure {
  if (!(err instanceof ApiError) || err.status === 0) return { kind: 'message', message: CHAT_TEXTS.sendFailed };
  // A reply without a message of its own (the kit reads it as «Произошла ошибка») gets the chat's default.
  const message = err.message && err.message !== UNKNOWN_ERROR_MESSAGE ? err.message : CHAT_TEXTS.requestFailed;
  if (err.status === 402 || err.code === 'INSUFFICIENT_TOKENS') return { kind: 'tooFewWords', message };
  const fields = err.fields;
  if (Object.keys(fields).length > 0) return { kind: 'fields', fields, message: null };
  return { kind: 'message', message };
}

/** A failed read or a change (rename, delete, stop): the server's message or «Ошибка при выполнении запроса»; thrown: «Ошибка при отправке». */
export const callFailure = (err: unknown): string => {
  const failure = sendFailure(err);
  return failure.kind === 'fields' ? Object.values(failure.fields).flat().join(' ') : failure.message;
};
