import type { Meta, StoryObj } from '@storybook/react-vite';
import { FAILED, REFUSED, SUCCEEDED, TEXT_DONE, run } from './fixtures.ts';
import { RunPanel } from './RunPanel.tsx';

const noop = () => undefined;

const meta = {
  title: 'Widgets/ai-products/RunPanel',
  component: RunPanel,
  args: { run: run(), cancelling: false, onCancel: noop, onAgain: noop, onEdit: noop, historyUrl: '/ai-history' },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 560 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof RunPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Queued: Story = {};
export const Cancelling: Story = { args: { cancelling: true } };
export const Running: Story = { args: { run: run({ status: 'running', progress: 40 }) } };
/** A video its provider is working on: it can still be cancelled, paying only for the part done. */
export const VideoRunning: Story = { args: { run: run({ variant: 'video', product: 'Видео по описанию', status: 'running', progress: 50, cost: { wallet: 'media', amount: 2 } }) } };
/** A video cancelled halfway: half its price kept, the rest back. */
export const VideoCancelledHalfway: Story = { args: { run: run({ variant: 'video', product: 'Видео по описанию', status: 'cancelled', progress: 50, refunded: false, cost: { wallet: 'media', amount: 1 } }) } };
export const ImageReady: Story = { args: { run: SUCCEEDED } };
export const VideoReady: Story = {
  args: {
    run: run({ variant: 'video', product: 'Видео по описанию', status: 'succeeded', progress: 100, cost: { wallet: 'media', amount: 4 }, outputs: [{ id: 10, url: '/demo.mp4', download_url: '/demo.mp4', kind: 'video', mime: 'video/mp4' }] }),
    historyUrl: '/ai-history-video',
  },
};
export const TextReady: Story = { args: { run: TEXT_DONE } };
export const FailedRefunded: Story = { args: { run: FAILED } };
/** The server's reason carries the sentence about the tokens: the panel says it once, on its own line. */
export const FailedTimeout: Story = { args: { run: run({ status: 'failed', refunded: true, error: 'Сервис генерации не ответил вовремя. Токены возвращены на баланс' }) } };
/** Refused by the provider's rules on content: why, and that nothing was charged. */
export const FailedContentPolicy: Story = { args: { run: REFUSED } };
export const Cancelled: Story = { args: { run: run({ status: 'cancelled', refunded: true }) } };
