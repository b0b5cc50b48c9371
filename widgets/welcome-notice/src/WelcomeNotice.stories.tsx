import type { Meta, StoryObj } from '@storybook/react-vite';
import { WELCOME_GIFT, type WelcomeState } from '@app/contracts/browser';
import { ERROR_CODES } from '@app/contracts';
import { WelcomeNoticeView } from './WelcomeNotice.tsx';

const noop = () => undefined;
const state: WelcomeState = { visible: true, gift: { ...WELCOME_GIFT }, channel_url: 'https://t.me/neurostudio_news', bot_url: 'https://t.me/neurostudio_bot?start=abc123', linked: false, claimed: false, sandbox: false };

const meta = {
  title: 'Widgets/welcome-notice',
  component: WelcomeNoticeView,
  args: { state, step: 'subscribe', busy: false, error: null, onCheck: noop, onClose: noop },
} satisfies Meta<typeof WelcomeNoticeView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SubscribePrompt: Story = {};
export const TelegramLinked: Story = { args: { state: { ...state, linked: true } } };
export const Sandbox: Story = { args: { state: { ...state, sandbox: true } } };
export const Checking: Story = { args: { busy: true } };
export const NotLinked: Story = { args: { error: ERROR_CODES.TELEGRAM_NOT_LINKED.message } };
export const NotMember: Story = { args: { state: { ...state, linked: true }, error: ERROR_CODES.TELEGRAM_NOT_MEMBER.message } };
export const AlreadyClaimed: Story = { args: { error: ERROR_CODES.GIFT_ALREADY_CLAIMED.message } };
export const TelegramUnavailable: Story = { args: { error: ERROR_CODES.TELEGRAM_UNAVAILABLE.message } };
export const Thanks: Story = { args: { step: 'thanks', state: { ...state, linked: true, claimed: true } } };
