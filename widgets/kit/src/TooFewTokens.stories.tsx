import type { Meta, StoryObj } from '@storybook/react-vite';
import { TooFewTokensView } from './too-few-tokens.tsx';

const noop = () => undefined;

/** The too-few-tokens panel of the chat and the catalogue: one state per way to more tokens, for each wallet. */
const meta = {
  title: 'Kit/TooFewTokens',
  component: TooFewTokensView,
  args: {
    wallet: 'media',
    topUp: 'packages',
    plansUrl: '/dashboard/user/payment',
    packagesUrl: '/dashboard/user/payment#packages',
    onDismiss: noop,
    children: 'Недостаточно токенов. Запуск стоит 1,0 медиа токена, на балансе 0,5 медиа токена.',
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 640 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof TooFewTokensView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const MediaOnPlan: Story = {};
export const MediaNoPlan: Story = { args: { topUp: 'subscribe' } };
export const MediaPlanCancelled: Story = { args: { topUp: 'resubscribe' } };
export const MediaPlanUnknown: Story = { args: { topUp: 'unknown' } };
export const WordsOnPlan: Story = { args: { wallet: 'words', headingLevel: 3, children: 'Недостаточно токенов. Ответ этой модели может стоить до 3 000 слов, на балансе 12 слов.' } };
export const WordsNoPlan: Story = { args: { wallet: 'words', topUp: 'subscribe', headingLevel: 3, children: 'Недостаточно токенов. На балансе 12 слов.' } };
