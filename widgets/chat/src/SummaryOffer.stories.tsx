import type { ReactElement } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ChatEstimate } from '@app/contracts/browser';
import { ChatView } from './ChatView.tsx';
import { modelChoices } from './chat-utils.ts';
import { CHATS, HISTORY, MODELS } from './fixtures.ts';
import { SummaryOffer } from './SummaryOffer.tsx';
import type { ComposerState } from './types.ts';
import type { SummaryState } from './use-chat-summary.ts';

/* The chat whose history has grown expensive: the price under the composer and the offer of a new chat with a short summary. */

const noop = () => undefined;
const done = () => Promise.resolve();
const choices = modelChoices(MODELS);
const EXPENSIVE: ChatEstimate = { min_words: 1_400, max_words: 4_400, history_words: 3_200, history_messages: 20, answer_words: 3_000, history_limit: null, summary_words: 3_900 };
const composer = (estimate: ChatEstimate, over: Partial<ComposerState> = {}): ComposerState => ({
  text: '',
  attachments: [],
  imageError: null,
  choices: { status: 'ready', data: choices },
  choiceKey: choices[0]?.key ?? null,
  phase: 'idle',
  failure: null,
  balance: 48_250,
  estimate,
  ...over,
});
const offer = (state: SummaryState, estimate = EXPENSIVE) => <SummaryOffer estimate={estimate} state={state} onStart={noop} />;
const IDLE: SummaryState = { phase: 'idle', error: null };

const frame = (width: number | '100%', height = 760) => (Story: () => ReactElement) => (
  <div style={{ width, height, maxWidth: '100%', display: 'flex', border: '1px dashed #d6d9e6' }}>
    <Story />
  </div>
);

const meta = {
  title: 'Widgets/chat/Expensive history',
  component: ChatView,
  decorators: [frame('100%')],
  args: {
    list: { status: 'ready', items: CHATS.map((c) => ({ id: c.id, text: c.text })), hasMore: false, loadingMore: false },
    currentId: 41,
    conversation: {
      status: 'ready',
      data: HISTORY.map((m) => ({ key: `m${String(m.id)}`, id: m.id, role: m.role, text: m.text, model: m.model, status: m.status, words: m.words, images: [] })),
    },
    older: { hasMore: false, loading: false, error: null },
    composer: composer(EXPENSIVE),
    composerExtra: offer(IDLE),
    dialog: null,
    plansUrl: '/dashboard/user/payment',
    packagesUrl: '/dashboard/user/payment#packages',
    topUp: 'packages',
    sidebarOpen: false,
    liveStatus: '',
    onToggleSidebar: noop,
    onNewChat: noop,
    onOpenChat: noop,
    onLoadMore: noop,
    onRetryList: noop,
    onRetryConversation: noop,
    onLoadOlder: noop,
    onDialog: noop,
    onRename: done,
    onDelete: done,
    onText: noop,
    onChoice: noop,
    onFiles: noop,
    onRemoveAttachment: noop,
    onSend: noop,
    onStop: noop,
    onDismissFailure: noop,
  },
} satisfies Meta<typeof ChatView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** «История чата уже дороже самого ответа…» with «Новый чат с кратким содержанием». */
export const SummaryOffered: Story = {};
/** The summary being written: the button waits. */
export const SummaryBeingWritten: Story = { args: { composerExtra: offer({ phase: 'busy', error: null }) } };
/** Too few words for the summary: it says what it may cost. */
export const SummaryTooFewWords: Story = { args: { composerExtra: offer({ phase: 'idle', error: 'Недостаточно токенов', tooFewWords: true }) } };
export const SummaryFailed: Story = { args: { composerExtra: offer({ phase: 'idle', error: 'Ошибка при выполнении запроса' }) } };
/** Staff let this model get only the latest 6 messages: the price says so, and the history is cheap enough not to offer a summary. */
export const HistoryCappedByStaff: Story = {
  args: { composer: composer({ ...EXPENSIVE, history_words: 900, history_messages: 6, history_limit: 6, max_words: 3_950 }), composerExtra: offer(IDLE, { ...EXPENSIVE, history_words: 900, history_limit: 6 }) },
};
/** The send refused for too few words: the panel names the same figure as the price, the history counted. */
export const TooFewWordsWithHistory: Story = {
  args: { composer: composer(EXPENSIVE, { text: 'Ещё один вопрос', failure: { kind: 'tooFewWords', message: 'Недостаточно токенов' }, balance: 2_100 }) },
};
export const PhoneSummaryOffered: Story = { decorators: [frame(390, 800)] };
export const PhoneTooFewWordsWithHistory: Story = { decorators: [frame(390, 800)], args: { ...TooFewWordsWithHistory.args } };
