import type { Meta, StoryObj } from '@storybook/react-vite';
import { HistoryButton } from './HistoryButton.tsx';

const meta = {
  title: 'Widgets/history-button',
  component: HistoryButton,
  args: { href: '/dashboard/user/orders', label: 'История заказов' },
} satisfies Meta<typeof HistoryButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const OrderHistory: Story = {};
export const GenerationHistory: Story = { args: { href: '/ai-history', label: 'История' } };
