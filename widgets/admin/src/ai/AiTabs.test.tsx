import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_AI_TEXTS, type AdminProvider } from '@app/contracts/admin';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeAiApi, type FakeAiOptions } from './fake-api.ts';
import { PROVIDERS } from './fixtures.ts';

function setup(path: string, options: FakeAiOptions = {}) {
  window.history.replaceState(null, '', path);
  const api: AdminApi = { ...fakeAdminApi(), ...fakeAiApi(options) };
  const spy = <K extends keyof AdminApi>(key: K) => vi.spyOn(api, key);
  const spied = {
    aiProducts: spy('aiProducts'),
    createAiProduct: spy('createAiProduct'),
    updateAiProduct: spy('updateAiProduct'),
    deleteAiProduct: spy('deleteAiProduct'),
    uploadAiExample: spy('uploadAiExample'),
    deleteAiCategory: spy('deleteAiCategory'),
    aiModels: spy('aiModels'),
    createAiModel: spy('createAiModel'),
    updateAiModel: spy('updateAiModel'),
    createProvider: spy('createProvider'),
    updateProvider: spy('updateProvider'),
    testProvider: spy('testProvider'),
  };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

const form = (name: string) => screen.findByRole('form', { name });
const field = (scope: HTMLElement, label: string | RegExp) => within(scope).getByLabelText(label);
const reject = (status: number, code: string, text: unknown) => () => Promise.reject(new ApiError(status, code, text));

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('products', () => {
  it('lists products with their example, variant, category, model and price; filters by variant in the address', async () => {
    const { spied, user } = setup('/admin/ai-products');
    const table = await screen.findByRole('table');
    const row = (await within(table).findByRole('link', { name: 'Картинка по описанию' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Изображения')).toBeTruthy();
    expect(within(row).getByText('Демо-художник')).toBeTruthy();
    // The price users see in the catalogue, the same figure: a text product's most with its template, rounded as there.
    expect(within(row).getByText('от 1,0 медиа токена')).toBeTruthy();
    expect(row.querySelector('img.ai-thumb')).toBeTruthy();
    const text = (await within(table).findByRole('link', { name: 'Пост для соцсетей' })).closest('tr') as HTMLElement;
    expect(within(text).getByText('до 850 слов')).toBeTruthy();
    // Switched on, but its model's connection is off: said as hidden, with why.
    const hidden = (await within(table).findByRole('link', { name: 'Открытка к празднику' })).closest('tr') as HTMLElement;
    expect(within(hidden).getByText('Скрыто').getAttribute('title')).toBe('пользователи его не видят: подключение «OpenAI» модели «Демо-художник» выключено');
    expect(within(hidden).queryByText('Включено')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Вариант'), 'img_3');
    await waitFor(() => expect(window.location.search).toBe('?variant=img_3'));
    await waitFor(() => expect(spied.aiProducts).toHaveBeenLastCalledWith({ query: { q: '', sort: 'id', dir: 'desc', page: 1, variant: 'img_3' } }));
    expect(await within(table).findByRole('link', { name: 'Открытка к празднику' })).toBeTruthy();
    expect(within(table).queryByRole('link', { name: 'Картинка по описанию' })).toBeNull();

    // Sorting keeps the filter.
    await user.click(screen.getByRole('button', { name: /Название/ }));
    await waitFor(() => expect(window.location.search).toBe('?sort=name&variant=img_3'));
  });

  it('a product switched on whose model’s connection is off warns on its screen that users do not see it', async () => {
    setup('/admin/ai-products/3');
    const warning = await screen.findByText(/Продукт включён, но пользователи его не видят/);
    expect(warning.textContent).toBe('Продукт включён, но пользователи его не видят: подключение «OpenAI» модели «Демо-художник» выключено. Включите подключение или выберите другую модель.');
  });

  it('creates a template product: the models offered are of the variant’s kind, fields are edited in rows, then the new product opens', async () => {
    const { spied, user } = setup('/admin/ai-products');
    await user.click(await screen.findByRole('link', { name: 'Создать продукт' }));
    expect(window.location.search).toBe('?new=1');
    const editor = await form('Новый продукт');
    await user.type(field(editor, /Название/), 'Пост для блога');
    await user.selectOptions(field(editor, /Вариант/), 'text_1');
    await waitFor(() => expect(within(field(editor, /Модель/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Демо-художник · Демо — тип «изображения», а нужен «текст»', 'Демо-автор · Демо']));
    await user.selectOptions(field(editor, /Модель/), '6');
    await user.selectOptions(field(editor, /Категория/), '3');
    await user.type(field(editor, /Шаблон запроса/), 'Напиши пост на тему {{topic}');

    const fields = screen.getByRole('region', { name: 'Поля шаблона' });
    expect(within(fields).getByText('В шаблоне есть', { exact: false })).toBeTruthy();
    await user.click(within(fields).getByRole('button', { name: 'Добавить поле topic' }));
    const row = within(fields).getByRole('group', { name: /Поле 1/ });
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    expect(await within(row).findByText('Укажите подпись поля')).toBeTruthy();
    expect(spied.createAiProduct).not.toHaveBeenCalled();

    await user.type(within(row).getByLabelText('Подпись'), 'Тема');
    await user.click(within(row).getByLabelText('Многострочное'));
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/ai-products/100'));
    expect(spied.createAiProduct).toHaveBeenCalledWith({
      body: {
        category_id: 3,
        variant: 'text_1',
        name: 'Пост для блога',
        description: '',
        prompt_template: 'Напиши пост на тему {topic}',
        fields: [{ name: 'topic', label: 'Тема', placeholder: '', multiline: true, required: true, max_length: 500 }],
        model_id: 6,
        sort: 0,
        active: true,
      },
    });
    expect(await screen.findByText('Продукт «Пост для блога» создан. Теперь можно загрузить пример')).toBeTruthy();
  });

  it('«создан» belongs to the creation only: the next save says what it did, alone', async () => {
    const { user } = setup('/admin/ai-products?new=1');
    const editor = await form('Новый продукт');
    await user.type(field(editor, /Название/), 'Открытка');
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    const created = 'Продукт «Открытка» создан. Теперь можно загрузить пример';
    expect(await screen.findByText(created)).toBeTruthy();
    await user.click(within(await form('Продукт')).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменений нет: сохранять нечего')).toBeTruthy();
    expect(screen.queryByText(created)).toBeNull();
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(['Изменений нет: сохранять нечего']);
    // A change of the form: the last save's message goes too.
    await user.type(field(await form('Продукт'), /Описание/), 'С праздником');
    expect(screen.queryAllByRole('status')).toEqual([]);
  });

  it('saves only what changed; moving and removing fields goes with the save', async () => {
    const { spied, user } = setup('/admin/ai-products/3');
    const editor = await form('Продукт');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    expect(await within(editor).findByText('Изменений нет: сохранять нечего')).toBeTruthy();
    expect(spied.updateAiProduct).not.toHaveBeenCalled();

    const fields = screen.getByRole('region', { name: 'Поля шаблона' });
    await user.click(within(fields).getByRole('button', { name: 'Поле 3 {style}: выше' }));
    await user.clear(field(editor, /Название/));
    await user.type(field(editor, /Название/), 'Открытка');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    await within(editor).findByText('Сохранено');
    const body = (spied.updateAiProduct.mock.calls[0]?.[0] as { body: { name: string; fields: { name: string }[] } }).body;
    expect(Object.keys(body).sort()).toEqual(['fields', 'name']);
    expect(body.fields.map((f) => f.name)).toEqual(['occasion', 'style', 'recipient']);
    expect(await screen.findByRole('heading', { name: 'Открытка' })).toBeTruthy();
  });

  it('shows the server’s messages by field: the template’s on it, the fields’ on their list', async () => {
    const { user } = setup('/admin/ai-products/3', {
      updateAiProduct: reject(422, 'VALIDATION', { prompt_template: ['В шаблоне есть {x}, но такого поля нет'], fields: ['Поле «style» не используется в шаблоне'] }),
    });
    const editor = await form('Продукт');
    await user.type(field(editor, /Шаблон запроса/), ' {{x}');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    expect(await within(editor).findByText('В шаблоне есть {x}, но такого поля нет')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Поля шаблона' })).getByText('Поле «style» не используется в шаблоне')).toBeTruthy();
  });

  it('a product with runs is switched off instead of deleted; one without goes, back to the list with a message', async () => {
    const first = setup('/admin/ai-products/1', { deleteAiProduct: () => Promise.resolve({ outcome: 'deactivated' }) });
    await first.user.click(await screen.findByRole('button', { name: 'Удалить' }));
    const confirm = screen.getByRole('group', { name: 'Подтверждение' });
    expect(confirm.textContent).toContain('Если по нему уже есть генерации, он будет выключен');
    await first.user.click(within(confirm).getByRole('button', { name: 'Да, удалить' }));
    expect(await screen.findByText(ADMIN_AI_TEXTS.deactivated)).toBeTruthy();
    expect(window.location.pathname).toBe('/admin/ai-products/1');
  });

  it('deleting a product without runs returns to the list with a message', async () => {
    const { spied, user } = setup('/admin/ai-products/1');
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Да, удалить' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/ai-products'));
    expect(spied.deleteAiProduct).toHaveBeenCalledWith({ params: { id: 1 } });
    expect(await screen.findByText('Продукт «Картинка по описанию» удалён')).toBeTruthy();
  });

  it('uploads an example image after a preview; a file of another kind is refused before sending', async () => {
    const { spied, user } = setup('/admin/ai-products/3');
    const example = await screen.findByRole('region', { name: 'Пример' });
    expect(within(example).getByText('Примера нет')).toBeTruthy();
    // A file the picker's filter let through is still checked.
    await userEvent.setup({ applyAccept: false }).upload(within(example).getByLabelText('Выбрать пример'), new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(within(example).getByText('Нужна картинка PNG, JPEG или WebP')).toBeTruthy();
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'card.png', { type: 'image/png' });
    await user.upload(within(example).getByLabelText('Выбрать пример'), png);
    expect(within(example).getByText('card.png')).toBeTruthy();
    await user.click(within(example).getByRole('button', { name: 'Загрузить' }));
    expect(await within(example).findByText('Пример загружен')).toBeTruthy();
    expect(spied.uploadAiExample).toHaveBeenCalledWith({ params: { id: 3 }, files: { image: png } });
    expect(within(example).getByRole('img', { name: 'Пример продукта' })).toBeTruthy();
  });
});

describe('categories', () => {
  it('a category with products is not deleted: the server’s reason is shown', async () => {
    const { spied, user } = setup('/admin/ai-categories/1', {
      deleteAiCategory: reject(409, 'IN_USE', 'В категории есть продукты (5): перенесите их в другую категорию или удалите, затем удалите категорию'),
    });
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));
    expect(screen.getByRole('group', { name: 'Подтверждение' }).textContent).toContain('В ней продукты (5)');
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Да, удалить' }));
    expect((await screen.findByRole('alert')).textContent).toContain('В категории есть продукты (5)');
    expect(spied.deleteAiCategory).toHaveBeenCalledOnce();
    expect(window.location.pathname).toBe('/admin/ai-categories/1');
  });

  it('links to its products, filtered', async () => {
    const { user } = setup('/admin/ai-categories/3');
    await user.click(await screen.findByRole('link', { name: 'Продуктов: 2' }));
    expect(window.location.pathname + window.location.search).toBe('/admin/ai-products?category_id=3');
    expect(await screen.findByRole('link', { name: 'Пост для соцсетей' })).toBeTruthy();
  });
});

describe('models', () => {
  it('filters by kind in the address', async () => {
    const { spied, user } = setup('/admin/ai-models');
    await screen.findByRole('link', { name: 'Демо-художник' });
    await user.selectOptions(screen.getByLabelText('Тип'), 'video');
    await waitFor(() => expect(spied.aiModels).toHaveBeenLastCalledWith({ query: { q: '', sort: 'id', dir: 'desc', page: 1, kind: 'video' } }));
    expect(window.location.search).toBe('?kind=video');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Демо-художник' })).toBeNull());
  });

  it('creates a model: connections by kind, parameter choices in rows with their prices', async () => {
    const { spied, user } = setup('/admin/ai-models?new=1');
    const editor = await form('Новая модель');
    const connections = () => within(field(editor, /Подключение/)).getAllByRole('option').map((o) => o.textContent);
    await waitFor(() => expect(connections()).toEqual(['Демо (Демо (офлайн))', 'OpenAI (OpenAI-совместимый)']));
    await user.selectOptions(field(editor, /Тип/), 'image');
    await waitFor(() => expect(connections()).toEqual(['Демо (Демо (офлайн))', 'OpenAI (OpenAI-совместимый)', 'Replicate (Replicate) — выключено']));
    await user.selectOptions(field(editor, /Тип/), 'text');
    await waitFor(() => expect(connections()).toEqual(['Демо (Демо (офлайн))', 'OpenAI (OpenAI-совместимый)']));
    await user.type(field(editor, /Название/), 'Писатель');
    await user.type(field(editor, /Модель у провайдера/), 'demo');
    await user.clear(field(editor, /Слов за токен/));
    await user.type(field(editor, /Слов за токен/), '1,5');

    const params = screen.getByRole('region', { name: 'Варианты параметров' });
    await user.click(within(params).getByRole('button', { name: 'Добавить вариант' }));
    await user.click(within(params).getByRole('button', { name: 'Добавить вариант' }));
    const [first, second] = within(params).getAllByRole('group', { name: /Вариант \d/ }) as [HTMLElement, HTMLElement];
    await user.type(within(first).getByLabelText('Значение'), 'short');
    await user.type(within(first).getByLabelText('Подпись'), 'Коротко');
    await user.type(within(first).getByLabelText('Лимит ответа, токенов'), '100');
    await user.type(within(first).getByLabelText('Температура (0–2)'), '3');
    expect(within(first).getByText('до 150 сл. за ответ + запрос')).toBeTruthy();
    await user.click(within(second).getByRole('button', { name: /удалить/ }));
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    expect(await within(first).findByText('Число от 0 до 2')).toBeTruthy();
    expect(spied.createAiModel).not.toHaveBeenCalled();

    await user.clear(within(first).getByLabelText('Температура (0–2)'));
    await user.type(within(first).getByLabelText('Температура (0–2)'), '0,4');
    await user.type(within(first).getByLabelText(/Параметры провайдера/), 'top_p=0.9{enter}stop=конец');
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/ai-models/100'));
    expect(spied.createAiModel.mock.calls[0]?.[0]).toMatchObject({
      body: {
        name: 'Писатель',
        kind: 'text',
        connection_id: 1,
        provider_model: 'demo',
        words_per_token: 1.5,
        setting: { model: { params: [{ value: 'short', label: 'Коротко', temperature: 0.4, max_output_tokens: 100, provider: { top_p: 0.9, stop: 'конец' } }] } },
      },
    });
  });

  it('a new model starts as a chat on the first switched-on connection that runs it; a kind its connection cannot run moves it to one that can', async () => {
    const openaiOff = { ...(PROVIDERS[1] as AdminProvider), active: false };
    // The seed's case: the switched-off OpenAI connection comes first by name.
    const { user } = setup('/admin/ai-models?new=1', { providers: () => Promise.resolve({ data: [openaiOff, PROVIDERS[0] as AdminProvider, PROVIDERS[2] as AdminProvider], last_page: 1 }) });
    const editor = await form('Новая модель');
    const kind = field(editor, /Тип/) as HTMLSelectElement;
    const connection = field(editor, /Подключение/) as HTMLSelectElement;
    expect(kind.value).toBe('chat');
    expect(within(kind).getAllByRole('option')[0]?.textContent).toBe('чат');
    expect(connection.value).toBe('1');
    expect(within(connection).getAllByRole('option').map((o) => o.textContent)).toEqual(['Демо (Демо (офлайн))', 'OpenAI (OpenAI-совместимый) — выключено']);
    await user.selectOptions(connection, '2');
    await user.selectOptions(kind, 'video');
    expect(connection.value).toBe('1');
    await user.selectOptions(kind, 'image');
    expect(connection.value).toBe('1');
  });

  it('offers the choices each kind usually has: answers’ temperature for a chat, sizes for images, durations for a video', async () => {
    const { user } = setup('/admin/ai-models?new=1');
    const editor = await form('Новая модель');
    const params = screen.getByRole('region', { name: 'Варианты параметров' });
    await user.click(within(params).getByRole('button', { name: 'Добавить вариант' }));
    expect(within(params).getByLabelText('Значение').getAttribute('placeholder')).toBe('balanced');
    expect(within(params).getByLabelText(/Параметры провайдера/).getAttribute('placeholder')).toBe('top_p=0.9');
    await user.click(within(params).getByRole('button', { name: /удалить/ }));
    await user.click(within(params).getByRole('button', { name: 'Добавить типовые: точный, обычный, творческий' }));
    const rows = () => within(params).getAllByRole('group', { name: /Вариант \d/ });
    expect(rows().map((r) => [within(r).getByLabelText<HTMLInputElement>('Подпись').value, within(r).getByLabelText<HTMLInputElement>('Температура (0–2)').value])).toEqual([
      ['Точный', '0.2'],
      ['Обычный', '0.7'],
      ['Творческий', '1.2'],
    ]);
    expect(within(params).queryByRole('button', { name: /Добавить типовые/ })).toBeNull();

    await user.selectOptions(field(editor, /Тип/), 'image');
    await user.click(within(params).getByRole('button', { name: 'Добавить типовые размеры' }));
    expect(rows().slice(3).map((r) => [within(r).getByLabelText<HTMLInputElement>('Подпись').value, within(r).getByLabelText<HTMLTextAreaElement>(/Параметры провайдера/).value])).toEqual([
      ['Квадрат 1024×1024', 'size=1024x1024'],
      ['Горизонтальная 1536×1024', 'size=1536x1024'],
      ['Вертикальная 1024×1536', 'size=1024x1536'],
    ]);
    await user.selectOptions(field(editor, /Тип/), 'video');
    expect(within(params).getByRole('button', { name: 'Добавить типовые длительности' })).toBeTruthy();
  });

  it('the server’s message about the choices shows on their list', async () => {
    const { user } = setup('/admin/ai-models/4', { updateAiModel: reject(422, 'VALIDATION', { setting: ['Вариант «pair» не читается так, как задан'] }) });
    const editor = await form('Модель');
    const params = screen.getByRole('region', { name: 'Варианты параметров' });
    expect(within(params).getByText('2,0 медиа (2 изобр.)')).toBeTruthy();
    await user.click(within(params).getByRole('button', { name: 'Вариант 2 «Два варианта»: выше' }));
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    expect(await within(params).findByText('Вариант «pair» не читается так, как задан')).toBeTruthy();
    expect(within(editor).getByRole('alert').textContent).toBe('Исправьте ошибки, отмеченные ниже');
  });
});

describe('providers', () => {
  it('shows only the key’s variable and whether it is set', async () => {
    setup('/admin/providers');
    const table = await screen.findByRole('table');
    const openai = (await within(table).findByRole('link', { name: 'OpenAI' })).closest('tr') as HTMLElement;
    expect(within(openai).getByText('OPENAI_API_KEY')).toBeTruthy();
    expect(within(openai).getByText('задан')).toBeTruthy();
    const replicate = within(table).getByRole('link', { name: 'Replicate' }).closest('tr') as HTMLElement;
    expect(within(replicate).getByText('не задан')).toBeTruthy();
  });

  it('a key typed where its variable’s name goes is refused and never sent', async () => {
    const { spied, user } = setup('/admin/providers/2');
    const editor = await form('Подключение');
    await user.clear(field(editor, /Переменная окружения/));
    await user.type(field(editor, /Переменная окружения/), 'sk-proj-abc123');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    expect(await within(editor).findByText(/на конце _API_KEY или _API_TOKEN/)).toBeTruthy();
    expect(spied.updateProvider).not.toHaveBeenCalled();
    await user.clear(field(editor, /Переменная окружения/));
    await user.type(field(editor, /Переменная окружения/), 'OPENROUTER_API_KEY');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(spied.updateProvider).toHaveBeenCalledWith({ params: { id: 2 }, body: { api_key_env: 'OPENROUTER_API_KEY' } }));
  });

  it('«Проверить» shows the time, the model and the answer, or the reason it failed', async () => {
    const { spied, user } = setup('/admin/providers/2');
    const check = await screen.findByRole('form', { name: 'Проверка связи' });
    await user.type(within(check).getByLabelText('Модель для проверки'), 'gpt-4o-mini');
    await user.click(within(check).getByRole('button', { name: 'Проверить' }));
    const outcome = await screen.findByRole('status', { name: 'Результат проверки' });
    expect(outcome.textContent).toBe('Связь есть · 42 мс · модель demoСвязь есть: демо-провайдер отвечает.');
    // The answer is the model's own text: Markdown, drawn as the chat draws it.
    spied.testProvider.mockResolvedValueOnce({ ok: true, latency_ms: 380, model: 'gpt-4o-mini', answer: 'Связь есть. _Я на месте_ и **готов** отвечать.', error: null });
    await user.click(within(check).getByRole('button', { name: 'Проверить' }));
    const italic = await within(screen.getByRole('status', { name: 'Результат проверки' })).findByText('Я на месте');
    expect(italic.tagName).toBe('EM');
    expect(screen.getByRole('status', { name: 'Результат проверки' }).textContent).toBe('Связь есть · 380 мс · модель gpt-4o-miniСвязь есть. Я на месте и готов отвечать.');
    expect(spied.testProvider).toHaveBeenCalledWith({ params: { id: 2 }, body: { model: 'gpt-4o-mini' } });
    // Sanitized as the chat's: a provider's HTML or a script link never becomes page markup.
    spied.testProvider.mockResolvedValueOnce({ ok: true, latency_ms: 90, model: 'x', answer: 'Готово <img src=x onerror="alert(1)"><script>alert(2)</script> [ссылка](javascript:alert(3)) и `код`', error: null });
    await user.click(within(check).getByRole('button', { name: 'Проверить' }));
    const answered = screen.getByRole('status', { name: 'Результат проверки' });
    expect((await within(answered).findByText('код')).tagName).toBe('CODE');
    expect(answered.querySelector('img, script, [onerror]')).toBeNull();
    expect(within(answered).getByText('ссылка').getAttribute('href') ?? '').not.toMatch(/javascript/i);

    spied.testProvider.mockResolvedValueOnce({ ok: false, latency_ms: 120, model: 'gpt-4o-mini', answer: null, error: 'Провайдер не принял ключ из переменной OPENAI_API_KEY (HTTP 401)' });
    await user.click(within(check).getByRole('button', { name: 'Проверить' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Результат проверки' }).textContent).toContain('Провайдер не принял ключ из переменной OPENAI_API_KEY (HTTP 401)'));
    expect(screen.getByRole('status', { name: 'Результат проверки' }).textContent).toContain('Ошибка · 120 мс');
  });

  it('creates a connection and opens it', async () => {
    const { spied, user } = setup('/admin/providers?new=1');
    const editor = await form('Новое подключение');
    await user.type(field(editor, /Название/), 'Локальный');
    await user.selectOptions(field(editor, /Протокол/), 'demo');
    await user.click(within(editor).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/providers/100'));
    expect(spied.createProvider).toHaveBeenCalledWith({ body: { name: 'Локальный', protocol: 'demo', base_url: null, api_key_env: null, timeout_seconds: 60, active: true } });
    expect(await screen.findByText('Подключение «Локальный» создано')).toBeTruthy();
  });
});
