import type { Meta, StoryObj } from '@storybook/react-vite';
import { ApiError } from '@app/kit';
import { Catalog } from './Catalog.tsx';
import { freshQueries, pending } from '@app/kit/stories';
import { fakeProductsApi } from './fake-api.ts';

const noop = () => undefined;

const meta = {
  title: 'Widgets/ai-products/Catalog',
  component: Catalog,
  decorators: [freshQueries],
  args: { type: null, api: fakeProductsApi(), navigate: noop, historyUrl: '/ai-history' },
} satisfies Meta<typeof Catalog>;
export default meta;
type Story = StoryObj<typeof meta>;

export const All: Story = {};
export const Images: Story = { args: { type: 'image' } };
export const VideoOnly: Story = { args: { type: 'video', historyUrl: '/ai-history-video' } };
export const Texts: Story = { args: { type: 'text' } };
export const Loading: Story = { args: { api: fakeProductsApi({ categories: () => pending() }) } };
export const Empty: Story = { args: { api: fakeProductsApi({ categories: [] }) } };
export const LoadFailed: Story = { args: { api: fakeProductsApi({ categories: () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова')) }) } };
