import type { ReactElement } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ChatMessage } from '@app/contracts/browser';
import { ChatView } from './ChatView.tsx';
import { IMAGE_TEXTS, modelChoices } from './chat-utils.ts';
import { CHATS, CODE_MARKDOWN, FAILED, GENERATING, HISTORY, MODELS, PICTURE_URL, REGENERATED, RICH_MARKDOWN, STOPPED, manyChats } from './fixtures.ts';
import type { Attachment, ComposerState, ShownMessage } from './types.ts';

const noop = () => undefined;
const done = () => Promise.resolve();

const shown = (messages: readonly ChatMessage[]): ShownMessage[] =>
  messages.map((m) => ({
    key: `m${String(m.id)}`,
    id: m.id,
    role: m.role,
    text: m.text,
    model: m.model,
    status: m.status,
    words: m.words,
    images: m.images.map((i) => ({ url: i.url, name: i.name })),
    ...(m.variants ? { variants: m.variants } : {}),
  }));
const actions = { busy: false, onRegenerate: noop, onEdit: noop, onVariant: noop };
const HIT_TITLE = [{ text: 'Название для ', mark: false }, { text: 'кофейни', mark: true }, { text: ' у моря', mark: false }];

const choices = modelChoices(MODELS);
const composer = (over: Partial<ComposerState> = {}): ComposerState => ({
  text: '',
  attachments: [],
  imageError: null,
  choices: { status: 'ready', data: choices },
  choiceKey: choices[0]?.key ?? null,
  phase: 'idle',
  failure: null,
  balance: 48_250,
  ...over,
});
const ready = (items = CHATS, more = false) => ({ status: 'ready' as const, items: items.map((c) => ({ id: c.id, text: c.text })), hasMore: more, loadingMore: false });
const conversation = (messages: readonly ChatMessage[]) => ({ status: 'ready' as const, data: shown(messages) });
const picture = (name: string): Attachment => ({ id: name, file: new File(['x'], name, { type: 'image/png' }), url: PICTURE_URL });

/** The chat fills the viewport on its page: stories give it a frame of that height. */
const frame = (width: number | '100%', height = 760) => (Story: () => ReactElement) => (
  <div style={{ width, height, maxWidth: '100%', display: 'flex', border: '1px dashed #d6d9e6' }}>
    <Story />
  </div>
);

const meta = {
  title: 'Widgets/chat',
  component: ChatView,
  decorators: [frame('100%')],
  args: {
    list: ready(),
    currentId: 41,
    conversation: conversation(HISTORY),
    older: { hasMore: false, loading: false, error: null },
    composer: composer(),
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
    actions,
    onSearch: noop,
    onOpenHit: noop,
    search: { text: '', results: null },
  },
} satisfies Meta<typeof ChatView>;
export default meta;
type Story = StoryObj<typeof meta>;

const liveAnswer = (text: string, status: ShownMessage['status'] = 'generating'): ShownMessage => ({ key: 'live-answer', role: 'assistant', text, model: 'GPT-4o mini', status, words: 0, images: [] });

export const Conversation: Story = {};
export const NewChatEmpty: Story = { args: { currentId: null, conversation: { status: 'new' } } };
export const FirstVisitNoChats: Story = { args: { currentId: null, conversation: { status: 'new' }, list: ready([]) } };
export const ListLoading: Story = { args: { list: { status: 'loading' }, conversation: { status: 'loading' } } };
export const ListFailed: Story = { args: { list: { status: 'error', message: 'Ошибка при выполнении запроса' }, currentId: null, conversation: { status: 'new' } } };
export const ManyChats: Story = { args: { list: ready(manyChats(40), true), currentId: 97 } };
export const LoadingMoreChats: Story = { args: { list: { ...ready(manyChats(20), true), loadingMore: true }, currentId: 97 } };
export const LongTitles: Story = { args: { list: ready([{ id: 1, text: 'Очень длинное название чата, которое не помещается в боковую панель', updated_at: '' }, ...CHATS]), currentId: 1 } };
/** Chats whose titles start alike or are the same: each row's buttons are named by the whole title, the same ones numbered. */
export const SameTitles: Story = {
  args: {
    list: ready([
      { id: 3, text: 'Объясни простыми словами, как работает нейросеть', updated_at: '' },
      { id: 2, text: 'Объясни простыми словами, что такое блокчейн', updated_at: '' },
      { id: 1, text: 'Привет', updated_at: '' },
      { id: 0, text: 'Привет', updated_at: '' },
    ]),
    currentId: 1,
  },
};
/** A chat opened by its address, not among the chats read yet: titled by its first message. */
export const OpenedBeyondTheList: Story = { args: { currentId: 7 } };
export const ConversationLoading: Story = { args: { conversation: { status: 'loading' } } };
/** A long chat: its newest messages, older ones read when it is scrolled to the top (or by the button). */
export const OlderMessagesToRead: Story = { args: { older: { hasMore: true, loading: false, error: null } } };
export const OlderMessagesLoading: Story = { args: { older: { hasMore: true, loading: true, error: null } } };
export const OlderMessagesFailed: Story = { args: { older: { hasMore: true, loading: false, error: 'Ошибка при выполнении запроса' } } };
export const ConversationFailed: Story = { args: { conversation: { status: 'error', message: 'Не найдено' } } };
export const Sending: Story = {
  args: {
    conversation: { status: 'ready', data: [...shown(HISTORY), { key: 'live-user', role: 'user', text: 'Сократи план до трёх пунктов', model: null, status: 'done', words: 0, images: [] }] },
    composer: composer({ phase: 'sending' }),
    liveStatus: 'Отправляем сообщение…',
  },
};
export const Streaming: Story = {
  args: {
    conversation: { status: 'ready', data: [...shown(HISTORY), { key: 'live-user', role: 'user', text: 'Сократи план до трёх пунктов', model: null, status: 'done', words: 0, images: [] }, liveAnswer('Конечно! Вот сокращённый план:\n\n1. **Зачем** спать\n2. Режим')] },
    composer: composer({ phase: 'streaming' }),
    liveStatus: 'Модель пишет ответ…',
  },
};
export const Stopping: Story = { args: { ...Streaming.args, composer: composer({ phase: 'stopping' }), liveStatus: 'Останавливаем ответ…' } };
export const RichMarkdown: Story = { args: { conversation: { status: 'ready', data: [{ key: 'rich', role: 'assistant', text: RICH_MARKDOWN, model: 'GPT-4o', status: 'done', words: 310, images: [] }] } } };
/** Code in several languages, each block highlighted with its language beside «Копировать»; a language the chat does not know and a block without one stay plain. */
export const CodeInAnswers: Story = {
  args: {
    list: ready([{ id: 77, text: 'Заказы пользователя: TypeScript, Python и SQL', updated_at: '' }, ...CHATS]),
    currentId: 77,
    conversation: {
      status: 'ready',
      data: [
        { key: 'ask', role: 'user', text: 'Как получить заказы пользователя? Покажи на TypeScript и Python, и запрос к базе', model: null, status: 'done', words: 0, images: [] },
        { key: 'code', id: 77, role: 'assistant', text: CODE_MARKDOWN, model: 'GPT-4o', status: 'done', words: 412, images: [] },
      ],
    },
  },
};
export const PhoneCodeInAnswers: Story = { decorators: [frame(390, 800)], args: { ...CodeInAnswers.args } };
/** A block being written stays plain until its closing fence comes; the one before it is coloured. */
export const StreamingCode: Story = {
  args: {
    ...Streaming.args,
    conversation: { status: 'ready', data: [...shown(HISTORY), liveAnswer('Готово:\n\n```ts\nconst total = orders.reduce((sum, o) => sum + o.total, 0);\n```\n\nИ проверка:\n\n```ts\nif (total > 0) {\n  console.log(')] },
  },
};
export const Stopped: Story = { args: { conversation: conversation(STOPPED), currentId: 37 } };
export const Failed: Story = { args: { conversation: conversation(FAILED), currentId: 38, composer: composer({ failure: { kind: 'message', message: 'Провайдер не ответил' } }) } };
export const SendThrew: Story = { args: { composer: composer({ text: 'Привет!', failure: { kind: 'message', message: 'Ошибка при отправке' } }) } };
export const GeneratingFromHistory: Story = { args: { conversation: conversation(GENERATING), currentId: 39 } };
export const TooFewWords: Story = { args: { composer: composer({ text: 'Напиши роман', balance: 12, failure: { kind: 'tooFewWords', message: 'Недостаточно токенов' } }) } };
export const TooFewWordsNoPlan: Story = { args: { topUp: 'subscribe', composer: composer({ text: 'Напиши роман', balance: 12, failure: { kind: 'tooFewWords', message: 'Недостаточно токенов' } }) } };
export const TooFewWordsPlanCancelled: Story = { args: { topUp: 'resubscribe', composer: composer({ text: 'Напиши роман', balance: 12, failure: { kind: 'tooFewWords', message: 'Недостаточно токенов' } }) } };
export const FieldError: Story = { args: { composer: composer({ failure: { kind: 'fields', fields: { message: ['Введите сообщение'] }, message: null } }) } };
export const ServerFileError: Story = {
  args: { composer: composer({ text: 'Что здесь?', attachments: [picture('скан.png')], failure: { kind: 'fields', fields: { image_example: ['Файл «скан.png» должен быть в формате PNG или JPEG'] }, message: null } }) },
};
export const TwoImagesAttached: Story = { args: { composer: composer({ text: 'Сравни эти две картинки', attachments: [picture('до.png'), picture('после.png')] }) } };
export const ThirdImageRefused: Story = { args: { composer: composer({ text: 'Сравни картинки', attachments: [picture('до.png'), picture('после.png')], imageError: IMAGE_TEXTS.tooMany }) } };
export const WrongImageType: Story = { args: { composer: composer({ imageError: IMAGE_TEXTS.wrongType('документ.pdf') }) } };
export const ModelsLoading: Story = { args: { currentId: null, conversation: { status: 'new' }, composer: composer({ choices: { status: 'loading' }, choiceKey: null }) } };
/** No remembered model (its choice is gone): the native select shows «Выберите модель». */
export const ModelNotChosen: Story = { args: { currentId: null, conversation: { status: 'new' }, composer: composer({ choiceKey: null }) } };
export const RenameDialog: Story = { args: { dialog: { kind: 'rename', chat: { id: 41, text: 'План статьи о здоровом сне для блога клиники' } } } };
export const RenameFieldError: Story = { args: { dialog: { kind: 'rename', chat: { id: 41, text: '' } }, dialogErrors: { title: ['Введите название'] } } };
export const DeleteDialog: Story = { args: { dialog: { kind: 'delete', chat: { id: 41, text: 'План статьи о здоровом сне для блога клиники' } } } };
export const Phone: Story = { decorators: [frame(390, 800)] };
/** A phone with the chat list open: each row's rename and delete buttons are always shown. */
export const PhoneChatList: Story = { args: { sidebarOpen: true }, decorators: [frame(390, 800)] };
export const PhoneNewChat: Story = { decorators: [frame(390, 800)], args: { currentId: null, conversation: { status: 'new' } } };
export const PhoneSidebarOpen: Story = { decorators: [frame(390, 800)], args: { sidebarOpen: true } };
export const PhoneStreaming: Story = { decorators: [frame(390, 800)], args: { ...Streaming.args } };
/** The last answer asked again: «Вариант 2 из 2» with arrows, «Копировать ответ», «Ответить заново»; the last message has «Изменить». */
export const Variants: Story = { args: { conversation: conversation(REGENERATED) } };
/** While an answer is written nothing is asked again or switched. */
export const VariantsBusy: Story = { args: { conversation: conversation(REGENERATED), actions: { ...actions, busy: true } } };
export const PhoneVariants: Story = { decorators: [frame(390, 800)], args: { conversation: conversation(REGENERATED) } };
/** The price of a send with the chat's history: «Отправка: 420–3 400 слов, из них история чата — до 400». */
export const PriceWithHistory: Story = { args: { composer: composer({ estimate: { min_words: 420, max_words: 3_400, history_words: 400, history_messages: 4, answer_words: 3_000, history_limit: null, summary_words: 0 } }) } };
export const SearchResults: Story = {
  args: {
    search: {
      text: 'кофейня',
      results: {
        status: 'ready',
        data: {
          hits: [
            { chat_id: 41, title: HIT_TITLE, message_id: null, role: null, snippet: [], created_at: '' },
            { chat_id: 41, title: HIT_TITLE, message_id: 2, role: 'user', snippet: [{ text: 'Придумай название для ', mark: false }, { text: 'кофейни', mark: true }, { text: ' у моря', mark: false }], created_at: '' },
          ],
          more: false,
        },
      },
    },
  },
};
export const SearchNothing: Story = { args: { search: { text: 'жираф', results: { status: 'ready', data: { hits: [], more: false } } } } };
export const SearchLoading: Story = { args: { search: { text: 'кофе', results: { status: 'loading' } } } };
export const SearchFailed: Story = { args: { search: { text: 'кофе', results: { status: 'error', message: 'Ошибка при выполнении запроса' } } } };
export const PhoneSearch: Story = { decorators: [frame(390, 800)], args: { sidebarOpen: true, ...SearchResults.args } };
/** An answer being written that stopped mid-italics shows no raw marks. */
export const StreamingHalfMarkdown: Story = { args: { ...Streaming.args, conversation: { status: 'ready', data: [...shown(HISTORY), liveAnswer('Готово.\n\n_Это ответ демо-режима: он составлен')] } } };
