import type { Meta, StoryObj } from '@storybook/react-vite';
import { TariffInputSchema } from '@app/contracts/admin';
import { ApiError } from '@app/kit';
import { freshQueries, pending } from '@app/kit/stories';
import { AdminList } from './AdminList.tsx';
import { AuditTab } from './AuditTab.tsx';
import { Editor } from './Editor.tsx';
import { fakeAdminApi } from './fake-api.ts';
import { HomeTab } from './HomeTab.tsx';
import { USER_COLUMNS } from './UsersTab.tsx';
import { UserScreen } from './UserScreen.tsx';
import { USERS } from './fixtures.ts';

const noop = () => undefined;
const query = { q: '', sort: 'id', dir: 'desc' as const, page: 1 };
const offline = () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова'));

const meta = {
  title: 'Widgets/admin/UsersList',
  component: AdminList<(typeof USERS)[number]>,
  args: {
    title: 'Пользователи',
    columns: USER_COLUMNS,
    state: { status: 'ready', data: { data: USERS, last_page: 3 } },
    query,
    onQuery: noop,
    onRetry: noop,
    searchLabel: 'Поиск по email',
    rowHref: (u) => `/admin/users/${String(u.id)}`,
    rowKey: (u) => u.id,
    navigate: noop,
    empty: 'Пользователей пока нет',
  },
} satisfies Meta<typeof AdminList<(typeof USERS)[number]>>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Users: Story = {};
export const SortedByEmail: Story = { args: { query: { ...query, sort: 'email', dir: 'asc' } } };
/** On a phone the list is wider than the screen: it scrolls inside its frame and says so. */
export const UsersOnPhone: Story = {
  decorators: [
    (Story) => (
      <div style={{ width: 358 }}>
        <Story />
      </div>
    ),
  ],
};
export const Loading: Story = { args: { state: { status: 'loading' } } };
export const NothingFound: Story = { args: { query: { ...query, q: 'nobody@' }, state: { status: 'ready', data: { data: [], last_page: 1 } } } };
export const Empty: Story = { args: { state: { status: 'ready', data: { data: [], last_page: 1 } } } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const User: Story = { decorators: [freshQueries], render: () => <UserScreen api={fakeAdminApi()} id={42} navigate={noop} /> };
export const UserLoading: Story = { decorators: [freshQueries], render: () => <UserScreen api={fakeAdminApi({ user: () => pending() })} id={42} navigate={noop} /> };
export const UserNotFound: Story = { decorators: [freshQueries], render: () => <UserScreen api={fakeAdminApi({ user: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Пользователь не найден')) })} id={99} navigate={noop} /> };
export const Audit: Story = { decorators: [freshQueries], render: () => <AuditTab api={fakeAdminApi()} query={query} navigate={noop} /> };
export const AuditEmpty: Story = { decorators: [freshQueries], render: () => <AuditTab api={fakeAdminApi({ audit: () => Promise.resolve({ data: [], last_page: 1 }) })} query={query} navigate={noop} /> };
export const Home: Story = { decorators: [freshQueries], render: () => <HomeTab api={fakeAdminApi()} navigate={noop} /> };
export const HomeNoFailures: Story = { decorators: [freshQueries], render: () => <HomeTab api={fakeAdminApi({ failures: () => Promise.resolve({ data: [], last_page: 1 }) })} navigate={noop} /> };
export const HomeOffline: Story = { decorators: [freshQueries], render: () => <HomeTab api={fakeAdminApi({ failures: offline })} navigate={noop} /> };
export const EditorForm: Story = {
  render: () => (
    <Editor
      label="Тариф"
      schema={TariffInputSchema}
      fields={[
        { name: 'name', label: 'Название', kind: 'text', required: true },
        { name: 'amount', label: 'Цена, ₽', kind: 'number', required: true },
        { name: 'subscriptions_type', label: 'Тип', kind: 'select', numeric: true, required: true, options: [{ value: '1', label: 'Месячный с пробным периодом' }, { value: '2', label: 'Месячный' }, { value: '3', label: 'Разовый пакет' }] },
        { name: 'words', label: 'Слова', kind: 'number', required: true },
        { name: 'media', label: 'Медиа токены', kind: 'number', required: true },
        { name: 'popular', label: 'Популярный', kind: 'checkbox' },
        { name: 'description', label: 'Строки описания', kind: 'lines', hint: 'Одна строка — один пункт; [[words]] и [[media]] — значки слов и медиа токенов' },
      ]}
      initial={{ name: 'Стандарт', amount: 990, subscriptions_type: 2, words: 100_000, media: 50, popular: true, description: ['[[words]] 100 000 слов', '[[media]] 50 медиа токенов'] }}
      submitLabel="Сохранить"
      onSubmit={() => Promise.resolve()}
    />
  ),
};
