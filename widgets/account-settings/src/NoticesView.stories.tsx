import type { Meta, StoryObj } from '@storybook/react-vite';
import { NoticesView } from './AccountSettings.tsx';
import { noticesFixture } from './fixtures.ts';

const noop = () => undefined;
const ready = (off: string[] = []) => ({ status: 'ready' as const, data: noticesFixture(off).notices });

const meta = {
  title: 'Widgets/account-settings/notices',
  component: NoticesView,
  args: { state: ready(), chosen: {}, saving: false, outcome: null, onToggle: noop, onSave: noop, onRetry: noop },
} satisfies Meta<typeof NoticesView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' } } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const AllOn: Story = {};
export const OptionalOff: Story = { args: { state: ready(['renewal_failed', 'plan_ended']) } };
export const Saving: Story = { args: { chosen: { plan_ended: false }, saving: true } };
export const Saved: Story = { args: { state: ready(['plan_ended']), outcome: { tone: 'success', text: 'Настройки сохранены' } } };
export const SaveFailed: Story = { args: { chosen: { plan_ended: false }, outcome: { tone: 'error', text: 'Произошла ошибка' } } };
