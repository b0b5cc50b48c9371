import type { Meta, StoryObj } from '@storybook/react-vite';
import { userEvent, within } from 'storybook/test';
import type { AdminAiModel, AdminProvider } from '@app/contracts/admin';
import { ApiError } from '@app/kit';
import { freshQueries, pending } from '@app/kit/stories';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { ADMIN_TABS, type TabFlag } from '../routes.ts';
import { AiTabs } from './AiTabs.tsx';
import { fakeAiApi, type FakeAiOptions } from './fake-api.ts';
import { MODELS, PROVIDERS } from './fixtures.ts';
import { TestOutcome } from './Providers.tsx';

const noop = () => undefined;
const offline = () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова'));
const nothing = () => Promise.resolve({ data: [], last_page: 1 });
const api = (options: FakeAiOptions = {}): AdminApi => ({ ...fakeAdminApi(), ...fakeAiApi(options) });
const tabOf = (flag: TabFlag) => ADMIN_TABS.find((t) => t.flag === flag) ?? ADMIN_TABS[0];

/** A tab at `{list}{search}` or `{list}/{id}`, its calls answered by the fixtures unless `options` says otherwise. */
const at = (flag: TabFlag, where: { id?: number; search?: string } = {}, options: FakeAiOptions = {}): Story => ({
  args: { tab: tabOf(flag), id: where.id ?? null, search: where.search ?? '', api: api(options) },
});

const meta = {
  title: 'Widgets/admin/AI catalogue',
  component: AiTabs,
  decorators: [freshQueries],
  args: { tab: tabOf('tab2'), id: null, search: '', api: api(), navigate: noop },
} satisfies Meta<typeof AiTabs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Products: Story = at('tab2');
export const ProductsFiltered: Story = at('tab2', { search: '?variant=img_3&category_id=1' });
export const ProductsLoading: Story = at('tab2', {}, { aiProducts: () => pending() });
export const ProductsEmpty: Story = at('tab2', {}, { aiProducts: nothing });
export const ProductsNothingFound: Story = at('tab2', { search: '?q=кот' }, { aiProducts: nothing });
export const ProductsLoadFailed: Story = at('tab2', {}, { aiProducts: offline });
export const ProductImage: Story = at('tab2', { id: 1 });
export const ProductTemplate: Story = at('tab2', { id: 3 });
/** Switched on, but its model's connection is off: users do not see it, and the screen says why. */
export const ProductHiddenByConnection: Story = at('tab2', { id: 3 });
export const ProductTextSwitchedOff: Story = at('tab2', { id: 7 });
export const ProductLoading: Story = at('tab2', { id: 1 }, { aiProduct: () => pending() });
export const ProductNotFound: Story = at('tab2', { id: 99 });
export const NewProduct: Story = at('tab2', { search: '?new=1' });
export const NewProductWithoutCategories: Story = at('tab2', { search: '?new=1' }, { aiCategories: nothing });

export const Categories: Story = at('tab3');
export const CategoriesEmpty: Story = at('tab3', {}, { aiCategories: nothing });
export const CategoriesLoadFailed: Story = at('tab3', {}, { aiCategories: offline });
export const Category: Story = at('tab3', { id: 1 });
export const CategoryNotFound: Story = at('tab3', { id: 99 });
export const NewCategory: Story = at('tab3', { search: '?new=1' });

export const Models: Story = at('tab4');
export const ModelsOfKind: Story = at('tab4', { search: '?kind=image&sort=name&dir=asc' });
export const ModelsLoading: Story = at('tab4', {}, { aiModels: () => pending() });
export const ModelsEmpty: Story = at('tab4', {}, { aiModels: nothing });
export const ModelImage: Story = at('tab4', { id: 4 });
export const ModelVideo: Story = at('tab4', { id: 5 });
export const ModelText: Story = at('tab4', { id: 6 });
export const ModelWithoutChoices: Story = at('tab4', { id: 3 });
/** A chat model that gets only the latest 6 messages of a chat with each new one (staff's cap on the history sent). */
export const ModelChatHistoryCapped: Story = at('tab4', { id: 3 }, { aiModel: () => Promise.resolve({ ...(MODELS.find((m) => m.id === 3) as AdminAiModel), history_messages: 6 }) });
export const ModelLoadFailed: Story = at('tab4', { id: 4 }, { aiModel: offline });
export const NewModel: Story = at('tab4', { search: '?new=1' });
export const NewModelWithoutConnections: Story = at('tab4', { search: '?new=1' }, { providers: nothing });
/** The seed's case: the switched-off OpenAI connection is first by name; the new chat model starts on the demo. */
export const NewModelOpenAiSwitchedOff: Story = at('tab4', { search: '?new=1' }, { providers: () => Promise.resolve({ data: [{ ...(PROVIDERS[1] as AdminProvider), active: false }, ...PROVIDERS.filter((p) => p.id !== 2)], last_page: 1 }) });
/** An image model with the usual sizes added in one click. */
export const NewModelImageSizes: Story = {
  ...at('tab4', { search: '?new=1' }),
  play: async () => {
    const page = within(document.body);
    const editor = await page.findByRole('form', { name: 'Новая модель' });
    await userEvent.selectOptions(within(editor).getByLabelText(/^Тип/), 'image');
    await userEvent.click(await page.findByRole('button', { name: 'Добавить типовые размеры' }));
    await page.findByDisplayValue('Квадрат 1024×1024');
  },
};

export const Providers: Story = at('tab14');
export const ProvidersEmpty: Story = at('tab14', {}, { providers: nothing });
export const ProvidersLoading: Story = at('tab14', {}, { providers: () => pending() });
export const ProviderDemo: Story = at('tab14', { id: 1 });
export const ProviderKeySet: Story = at('tab14', { id: 2 });
export const ProviderKeyMissing: Story = at('tab14', { id: 3 });
export const ProviderNotFound: Story = at('tab14', { id: 99 });
export const NewProvider: Story = at('tab14', { search: '?new=1' });
export const ProviderTestAnswered: Story = {
  render: () => <TestOutcome result={{ ok: true, latency_ms: 412, model: 'gpt-4o-mini', answer: 'Связь есть. Я на месте и готов отвечать.', error: null }} />,
};
/** A model that answers in Markdown, drawn as the chat draws it. */
export const ProviderTestAnsweredMarkdown: Story = {
  render: () => <TestOutcome result={{ ok: true, latency_ms: 530, model: 'gpt-4o-mini', answer: 'Связь есть. _Я на месте_ и **готов** отвечать:\n\n- на вопросы;\n- по коду: `print("привет")`.', error: null }} />,
};
/** An answer cut at the test's length limit mid-italics: drawn whole, no raw «_». */
export const ProviderTestAnsweredCut: Story = {
  render: () => <TestOutcome result={{ ok: true, latency_ms: 105, model: 'demo', answer: 'Связь есть. **Готов** отвечать на вопросы.\n\n_Это ответ демо-режима: он составлен', error: null }} />,
};
export const ProviderTestFailed: Story = {
  render: () => <TestOutcome result={{ ok: false, latency_ms: 230, model: 'gpt-4o-mini', answer: null, error: 'Провайдер не принял ключ из переменной OPENAI_API_KEY (HTTP 401): Incorrect API key provided' }} />,
};
