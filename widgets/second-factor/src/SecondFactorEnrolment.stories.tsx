import type { Meta, StoryObj } from '@storybook/react-vite';
import type { LoadState } from '@app/kit';
import type { SecondFactorSetup } from '@app/contracts/browser';
import { EnrolmentView, RecoveryCodesView } from './SecondFactorEnrolment.tsx';
import { useEnableForm, type EnableValues } from './use-enable-form.ts';
import { SETUP } from './fixtures.ts';

/** The enrolment's first screen in one state. */
function EnrolmentStory({ setup = { status: 'ready', data: SETUP }, values, errors, formErrors, busy = false }: { setup?: LoadState<SecondFactorSetup>; values?: Partial<EnableValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean }) {
  const form = useEnableForm({ values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <EnrolmentView email="boris@example.ru" setup={setup} form={{ ...form, busy: busy || form.busy }} />;
}

const meta = {
  title: 'Widgets/second-factor',
  component: EnrolmentStory,
  args: {},
} satisfies Meta<typeof EnrolmentStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Scan: Story = {};
export const Loading: Story = { args: { setup: { status: 'loading' } } };
export const LoadFailed: Story = { args: { setup: { status: 'error', message: 'Сервис временно недоступен' } } };
export const Filled: Story = { args: { values: { code: '123456' } } };
export const Enabling: Story = { args: { values: { code: '123456' }, busy: true } };
export const ShortCode: Story = { args: { values: { code: '123' }, errors: { code: ['Код состоит из 6 цифр'] } } };
export const WrongCode: Story = { args: { values: { code: '000000' }, errors: { code: ['Неверный код'] } } };
export const TooManyCodes: Story = { args: { values: { code: '000000' }, formErrors: ['Слишком много неверных кодов. Попробуйте через 14 минут'] } };
export const RecoveryCodes: Story = {
  render: () => <RecoveryCodesView codes={['abcde-fghjk', 'mnpqr-stuvw', 'xyz23-45678', 'k7m2p-q9r4s', 'b3c5d-e6f7g', 'h8j9k-m2n3p', 'q4r5s-t6u7v', 'w8x9y-z2a3b', 'c4d5e-f6g7h', 'j8k9m-n2p3q']} onDone={() => undefined} />,
};
