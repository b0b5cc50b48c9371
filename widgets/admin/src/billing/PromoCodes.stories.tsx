import type { Meta, StoryObj } from '@storybook/react-vite';
import { ApiError } from '@app/kit';
import { freshQueries, pending } from '@app/kit/stories';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeBillingApi, type FakeBillingAnswers } from './fake-api.ts';
import { PromoCodesTab } from './PromoCodesTab.tsx';

const noop = () => undefined;
const api = (answers: FakeBillingAnswers = {}) => ({ ...fakeAdminApi(), ...fakeBillingApi(answers) });

const meta = {
  title: 'Widgets/admin/Billing/Промокоды',
  component: PromoCodesTab,
  decorators: [freshQueries],
  args: { api: api(), id: null, search: '', navigate: noop },
} satisfies Meta<typeof PromoCodesTab>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {};
export const ListLoading: Story = { args: { api: api({ promoCodes: pending }) } };
export const ListEmpty: Story = { args: { api: api({ promoCodes: () => Promise.resolve({ data: [], last_page: 1 }) }) } };
export const ListFailed: Story = { args: { api: api({ promoCodes: () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова')) }) } };
export const NewCode: Story = { args: { search: '?new=1' } };
export const OneCodeWithRedemptions: Story = { args: { id: 4 } };
export const JustCreated: Story = { args: { id: 4, search: '?created=1' } };
export const NobodyYet: Story = { args: { id: 5 } };
export const NotFound: Story = { args: { id: 99 } };
