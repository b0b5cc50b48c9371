import type { Meta, StoryObj } from '@storybook/react-vite';
import { ApiError } from '@app/kit';
import { freshQueries } from '@app/kit/stories';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { LegalDocuments } from './LegalDocuments.tsx';

const failing = (): AdminApi => {
  const api = fakeAdminApi();
  return { ...api, legal: Object.assign(() => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова')), { route: api.legal.route }) };
};

const meta = {
  title: 'Widgets/admin/Documents',
  component: LegalDocuments,
  decorators: [freshQueries],
  args: { api: fakeAdminApi() },
} satisfies Meta<typeof LegalDocuments>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The personal-data policy in force, ready to edit. */
export const Policy: Story = {};
export const LoadFailed: Story = { args: { api: failing() } };
