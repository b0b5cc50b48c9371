import type { Meta, StoryObj } from '@storybook/react-vite';
import type { Generation } from '@app/contracts/generation';
import { AiHistoryView } from './AiHistoryView.tsx';
import { CANCELLED, FAILED, IMAGE_RUNS, QUEUED, REFUSED, RUNNING, SEVERAL, SUCCEEDED, TEXT_RUNS, VIDEO_RUNS, manyRuns } from './fixtures.ts';

const noop = () => undefined;
const ready = (runs: Generation[]) => ({ status: 'ready' as const, data: runs });

const meta = {
  title: 'Widgets/ai-history',
  component: AiHistoryView,
  args: {
    kind: 'image',
    productsUrl: '/ai-products',
    page: 1,
    lastPage: 1,
    state: ready(IMAGE_RUNS),
    open: null,
    cancelling: [],
    cardErrors: {},
    copied: null,
    onPageChange: noop,
    onRetry: noop,
    onCancel: noop,
    onOpen: noop,
    onClose: noop,
    onCopy: noop,
  },
} satisfies Meta<typeof AiHistoryView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ImagesInEveryState: Story = {};
export const Loading: Story = { args: { state: { status: 'loading' } } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const ImagesEmpty: Story = { args: { state: ready([]) } };
export const VideosEmpty: Story = { args: { kind: 'video', state: ready([]) } };
export const TextsEmpty: Story = { args: { kind: 'text', state: ready([]) } };
export const Queued: Story = { args: { state: ready([QUEUED]) } };
export const Cancelling: Story = { args: { state: ready([QUEUED]), cancelling: [QUEUED.id] } };
export const CancelRefused: Story = { args: { state: ready([{ ...QUEUED, status: 'running', progress: 5 }]), cardErrors: { [QUEUED.id]: 'Эту генерацию уже не отменить' } } };
export const Running: Story = { args: { state: ready([RUNNING]) } };
export const Succeeded: Story = { args: { state: ready([SUCCEEDED]) } };
export const SeveralResults: Story = { args: { state: ready([SEVERAL]) } };
export const FailedWithRefund: Story = { args: { state: ready([FAILED]) } };
/** Failures that say why: the model is not set up, the provider refused the content. Neither cost anything. */
export const FailedWithReasons: Story = { args: { state: ready([FAILED, REFUSED]) } };
export const Cancelled: Story = { args: { state: ready([CANCELLED]) } };
export const Videos: Story = { args: { kind: 'video', state: ready(VIDEO_RUNS) } };
export const Texts: Story = { args: { kind: 'text', state: ready(TEXT_RUNS) } };
export const TextCopied: Story = { args: { kind: 'text', state: ready(TEXT_RUNS), copied: { id: 31, ok: true } } };
export const ManyPages: Story = { args: { page: 13, lastPage: 25, state: ready(manyRuns(24)) } };
export const NextPageLoading: Story = { args: { page: 2, lastPage: 3, state: { status: 'loading' } } };
export const ImageOpen: Story = { args: { state: ready([SUCCEEDED]), open: { run: SUCCEEDED, output: 0 } } };
export const SeveralOpenSecond: Story = { args: { state: ready([SEVERAL]), open: { run: SEVERAL, output: 1 } } };
export const TextOpen: Story = { args: { kind: 'text', state: ready(TEXT_RUNS), open: { run: TEXT_RUNS[0] as Generation, output: 0 } } };
/** A phone's width (390 px, the page's padding included). */
export const Phone: Story = {
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 358 }}>
        <Story />
      </div>
    ),
  ],
};
