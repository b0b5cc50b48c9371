import type { Meta, StoryObj } from '@storybook/react-vite';
import { TariffsView } from './TariffsView.tsx';
import type { TariffsData } from './tariffs-state.ts';
import type { PromoState } from './PromoField.tsx';
import { NO_PLAN, ON_PRO, PRO_CANCELLED, TARIFFS, tariff } from './fixtures.ts';

const noop = () => undefined;
const ready = (data: Partial<TariffsData> = {}) => ({ status: 'ready' as const, data: { tariffs: TARIFFS, check: NO_PLAN, ...data } });

const meta = {
  title: 'Widgets/tariffs',
  component: TariffsView,
  args: {
    state: ready(),
    sandbox: false,
    purchased: [],
    busy: null,
    cancelBusy: false,
    notice: null,
    dialog: null,
    onSelect: noop,
    onConfirmSubscribe: noop,
    onCancelRequest: noop,
    onConfirmCancel: noop,
    onCloseDialog: noop,
    onRetry: noop,
  },
} satisfies Meta<typeof TariffsView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' } } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const NoPlans: Story = { args: { state: ready({ tariffs: [] }) } };
export const FirstTimeWithTrial: Story = {};
export const NotSubscribedNoTrial: Story = { args: { state: ready({ check: { ...NO_PLAN, first: false } }) } };
export const PackageNeedsPlan: Story = { args: { notice: { tariffId: 4, kind: 'blocked', text: 'Покупка пакетов доступна только при активной подписке' } } };
/** Description lines as staff typed them: the number kept, «медиа токен…» agreeing with it; a monthly plan without a trial. */
export const DescriptionAsTyped: Story = {
  args: {
    state: ready({
      tariffs: [
        tariff(3),
        { ...tariff(5), id: 6, name: 'Медиа на месяц', description: ['[[media]] 300 медиа токенов', '1 медиа токенов в подарок', '2,5 медиа токенов за отзыв'] },
      ],
      check: ON_PRO,
    }),
  },
};
export const PublicView: Story = { args: { state: ready({ tariffs: TARIFFS.filter((t) => t.subscriptions_type !== 3) }) } };
export const SandboxMode: Story = { args: { sandbox: true } };
export const PaymentsUnavailable: Story = { args: { paymentsOff: true, state: ready({ check: ON_PRO }) } };
export const PaymentsUnavailableClicked: Story = { args: { paymentsOff: true, notice: { tariffId: 2, kind: 'blocked', text: 'Оплата временно недоступна. Попробуйте позже' } } };
export const CurrentPlan: Story = { args: { state: ready({ check: ON_PRO }) } };
export const CurrentPlanOnTrial: Story = { args: { state: ready({ check: { ...ON_PRO, trial: true, next_charge_at: '2025-05-18T12:00:00Z', next_charge_amount: 990 } }) } };
export const CurrentPlanRenewalFailed: Story = { args: { state: ready({ check: { ...ON_PRO, past_due: true } }) } };
export const SubscribeConfirmTrial: Story = { args: { dialog: { kind: 'subscribe', tariff: tariff(2) } } };
export const SubscribeConfirmMonthly: Story = { args: { dialog: { kind: 'subscribe', tariff: tariff(3) } } };
const promo = (state: PromoState, code = 'START20') => ({ code, state, onCodeChange: noop, onApply: noop });
export const SubscribeWithPromoField: Story = { args: { dialog: { kind: 'subscribe', tariff: tariff(2) }, promo: promo({ kind: 'idle' }, '') } };
export const SubscribePromoChecking: Story = { args: { dialog: { kind: 'subscribe', tariff: tariff(2) }, promo: promo({ kind: 'checking' }) } };
export const SubscribePromoApplied: Story = {
  args: { dialog: { kind: 'subscribe', tariff: tariff(2) }, promo: promo({ kind: 'applied', check: { code: 'START20', percent: 20, amount: 149, discounted: 119.2, message: 'Скидка 20 % по промокоду START20: первая оплата 119,2 ₽ вместо 149 ₽' } }) },
};
export const SubscribePromoRefused: Story = { args: { dialog: { kind: 'subscribe', tariff: tariff(2) }, promo: promo({ kind: 'error', message: 'Этот промокод действует на другой тариф' }, 'OTHER10') } };
export const SubscribeConfirmReplacing: Story = { args: { state: ready({ check: ON_PRO }), dialog: { kind: 'subscribe', tariff: tariff(3) } } };
export const CancelConfirm: Story = { args: { state: ready({ check: ON_PRO }), dialog: { kind: 'cancel', tariff: tariff(2) } } };
export const Cancelling: Story = { args: { state: ready({ check: ON_PRO }), dialog: { kind: 'cancel', tariff: tariff(2) }, cancelBusy: true } };
export const Cancelled: Story = { args: { state: ready({ check: PRO_CANCELLED }), notice: { tariffId: 2, kind: 'cancelled', name: 'Про', until: PRO_CANCELLED.active_until } } };
export const CancelledPackageBlocked: Story = { args: { state: ready({ check: PRO_CANCELLED }), notice: { tariffId: 5, kind: 'blocked', text: 'Подписка отменена: пополнение токенов недоступно до конца периода' } } };
export const CancelFailed: Story = { args: { state: ready({ check: ON_PRO }), notice: { tariffId: 2, kind: 'error', text: 'Произошла ошибка' } } };
export const StartingPayment: Story = { args: { busy: { tariffId: 2, phase: 'starting' } } };
export const StartFailed: Story = { args: { notice: { tariffId: 2, kind: 'error', text: 'Произошла ошибка' } } };
export const StartFailedWithServerMessage: Story = { args: { state: ready({ check: ON_PRO }), notice: { tariffId: 4, kind: 'error', text: 'Платёжный сервис недоступен. Попробуйте позже' } } };
export const Declined: Story = { args: { notice: { tariffId: 1, kind: 'declined', reason: 'Недостаточно средств на карте' } } };
export const AwaitingConfirmation: Story = { args: { busy: { tariffId: 2, phase: 'confirming' }, notice: { tariffId: 2, kind: 'confirming' } } };
export const ConfirmationLate: Story = { args: { notice: { tariffId: 1, kind: 'late' } } };
export const PlanPaid: Story = { args: { state: ready({ check: ON_PRO }), notice: { tariffId: 2, kind: 'paid', purchase: 'plan', name: 'Про' } } };
export const PackagePurchased: Story = { args: { state: ready({ check: ON_PRO }), purchased: [4], notice: { tariffId: 4, kind: 'paid', purchase: 'package', name: 'Пакет слов' } } };
