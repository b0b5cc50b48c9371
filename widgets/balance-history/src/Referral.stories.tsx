import type { Meta, StoryObj } from '@storybook/react-vite';
import { ReferralView } from './Referral.tsx';
import { REFERRAL } from './fixtures.ts';

const noop = () => undefined;

const meta = {
  title: 'Widgets/balance-history/Пригласите друзей',
  component: ReferralView,
  args: { state: { status: 'ready', data: REFERRAL }, origin: 'https://neurostudio.ru', copy: 'idle', onCopy: noop, onRetry: noop },
} satisfies Meta<typeof ReferralView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' } } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const NobodyYet: Story = { args: { state: { status: 'ready', data: { ...REFERRAL, invited: 0, paid: 0, earned_words: 0 } } } };
export const FriendsPaid: Story = {};
export const Copied: Story = { args: { copy: 'copied' } };
export const CopyRefused: Story = { args: { copy: 'failed' } };
export const BonusOff: Story = { args: { state: { status: 'ready', data: { ...REFERRAL, bonus_words: 0 } } } };
