import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type PaymentStart, type SubscribeCheck, type WidgetOptions } from '@app/contracts/browser';
import { ApiError, formatDate } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { promoEndpoints } from '@app/contracts/promo';
import { Tariffs } from './Tariffs.tsx';
import type { TariffsApi } from './api.ts';
import type { ChargeOutcome, PaymentWidget } from './payment-widget.ts';
import { NO_PLAN, ON_PRO, PRO_CANCELLED, TARIFFS } from './fixtures.ts';

const SCRIPT = '/sandbox/cloudpayments.js';
const start = (id: number, amount: number): PaymentStart => ({ payment_id: 40 + id, email: 'anna@example.ru', amount, options: { invoiceId: String(40 + id), amount } as unknown as WidgetOptions });
type Overrides = { [K in keyof TariffsApi]?: (request: Parameters<TariffsApi[K]>[0]) => ReturnType<TariffsApi[K]> };

const idOf = (request: { query: { id: unknown } } | undefined) => Number(request?.query.id);

function fakeApi(check: SubscribeCheck | SubscribeCheck[], overrides: Overrides = {}) {
  const checks = Array.isArray(check) ? [...check] : [check];
  const e = billingEndpoints;
  return {
    tariffs: fakeRoute(e.tariffs, overrides.tariffs ?? (() => TARIFFS)),
    // Each call answers the next state; the last one repeats.
    check: fakeRoute(e.subscribeCheck, overrides.check ?? (() => (checks.length > 1 ? checks.shift() : checks[0]) as SubscribeCheck)),
    cancel: fakeRoute(e.cancelSubscription, overrides.cancel ?? (() => ({ cancelled: true as const, active_until: '2025-06-15T12:00:00Z' }))),
    paymentKey: fakeRoute(e.paymentKey, overrides.paymentKey ?? (() => 'pk_test')),
    paySubscription: fakeRoute(e.paySubscription, overrides.paySubscription ?? ((r) => start(idOf(r), 149))),
    payPackage: fakeRoute(e.payPackage, overrides.payPackage ?? ((r) => start(idOf(r), 290))),
    paymentStatus: fakeRoute(e.paymentStatus, overrides.paymentStatus ?? ((r) => ({ payment_id: idOf(r), kind: idOf(r) >= 44 ? ('package' as const) : ('subscription' as const), status: 'paid' as const, message: null }))),
    checkDiscount: fakeRoute(promoEndpoints.checkDiscount, overrides.checkDiscount ?? (() => Promise.reject(new ApiError(422, 'PROMO_NOT_FOUND', 'Такого промокода нет')))),
  } satisfies TariffsApi;
}
type FakeApi = ReturnType<typeof fakeApi>;

function fakeWidget(outcome: ChargeOutcome = { status: 'success' }, overrides: Partial<PaymentWidget> = {}): PaymentWidget {
  return { load: vi.fn().mockResolvedValue(undefined), charge: vi.fn().mockResolvedValue(outcome), ...overrides };
}

function renderTariffs(api: FakeApi, widget: PaymentWidget = fakeWidget(), extra: { sandbox?: boolean; paymentsOff?: boolean; frontend?: boolean; pollAttempts?: number } = {}) {
  return render(<Tariffs frontend={extra.frontend ?? false} paymentScriptUrl={SCRIPT} sandbox={extra.sandbox ?? false} paymentsOff={extra.paymentsOff ?? false} api={api} widget={widget} pollDelayMs={1} pollAttempts={extra.pollAttempts ?? 15} />);
}

/** The card of a plan, found by its name. */
const plan = async (name: string) => within((await screen.findByRole('heading', { name, level: 3 })).closest('article') as HTMLElement);

describe('Tariffs: buttons per seed §4', () => {
  it('not subscribed, first time: trial, subscribe and buy buttons; packages look disabled', async () => {
    const api = fakeApi(NO_PLAN);
    renderTariffs(api);
    expect((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' })).toBeInTheDocument();
    expect((await plan('Про')).getByRole('button', { name: 'Попробовать за 149 р.' })).toBeInTheDocument();
    expect((await plan('Бизнес')).getByRole('button', { name: 'Подписаться' })).toBeInTheDocument();
    for (const name of ['Пакет слов', 'Пакет медиа']) {
      const buy = (await plan(name)).getByRole('button', { name: 'Купить' });
      expect(buy).toHaveAttribute('aria-disabled', 'true');
      expect(buy).toHaveClass('is-disabled');
      expect(buy).toBeEnabled();
    }
    expect(api.tariffs).toHaveBeenCalledWith({ query: { frontend: '0' } });
  });

  it('a link to #packages scrolls to the packages once they are drawn', async () => {
    window.history.replaceState(null, '', '#packages');
    const scrolled: string[] = [];
    // jsdom has no layout, so no scrollIntoView of its own.
    Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
      scrolled.push(this.id);
    };
    try {
      renderTariffs(fakeApi(NO_PLAN));
      await screen.findByRole('heading', { name: 'Пакеты токенов' });
      await waitFor(() => expect(scrolled).toEqual(['packages']));
    } finally {
      window.history.replaceState(null, '', window.location.pathname);
    }
  });

  it('asks for frontend=1 when mounted with frontend', async () => {
    const api = fakeApi(NO_PLAN);
    renderTariffs(api, fakeWidget(), { frontend: true });
    await plan('Старт');
    expect(api.tariffs).toHaveBeenCalledWith({ query: { frontend: '1' } });
  });

  it('not first time: a trial plan shows «Подписаться» and the full price', async () => {
    renderTariffs(fakeApi({ ...NO_PLAN, first: false }));
    const start = await plan('Старт');
    expect(start.getByRole('button', { name: 'Подписаться' })).toBeInTheDocument();
    expect(start.getByText('490 ₽')).toBeInTheDocument();
    expect(start.queryByText(/потом/)).not.toBeInTheDocument();
  });

  it('the current plan shows «Ваш тариф» and a cancel button; packages can be bought', async () => {
    renderTariffs(fakeApi(ON_PRO));
    const pro = await plan('Про');
    expect(pro.getByRole('button', { name: 'Ваш тариф' })).toBeDisabled();
    expect(pro.getByRole('button', { name: 'Отменить подписку' })).toBeEnabled();
    expect(pro.getByText('Автопродление с карты •••• 4242')).toBeInTheDocument();
    expect((await plan('Старт')).getByRole('button', { name: 'Подписаться' })).toBeInTheDocument();
    expect((await plan('Пакет слов')).getByRole('button', { name: 'Купить' })).not.toHaveAttribute('aria-disabled');
  });

  it('during the trial the plan says when it ends and what is charged then', async () => {
    renderTariffs(fakeApi({ ...ON_PRO, trial: true, next_charge_at: '2025-05-18T12:00:00Z', next_charge_amount: 990 }));
    const pro = await plan('Про');
    expect(pro.getByText(`Пробный период до ${formatDate('2025-05-18T12:00:00Z')}. Затем спишем 990 ₽ и дальше каждый месяц.`)).toBeInTheDocument();
    expect(pro.getByText('Автопродление с карты •••• 4242')).toBeInTheDocument();
  });

  it('after a failed renewal the plan says so instead of the next charge', async () => {
    renderTariffs(fakeApi({ ...ON_PRO, past_due: true }));
    const pro = await plan('Про');
    expect(pro.getByRole('status')).toHaveTextContent('Не удалось списать оплату за продление. Мы повторим попытку — проверьте карту.');
    expect(pro.queryByText(/Следующее списание/)).not.toBeInTheDocument();
  });

  it('a renewing plan shows the next charge with its amount and date', async () => {
    renderTariffs(fakeApi(ON_PRO));
    expect((await plan('Про')).getByText(`Следующее списание 990 ₽ — ${formatDate('2025-06-15T12:00:00Z')}`)).toBeInTheDocument();
  });

  it('shows the description lines as staff typed them, «медиа токен…» agreeing with the number shown', async () => {
    const typed = { ...(TARIFFS[4] as (typeof TARIFFS)[number]), id: 6, name: 'Пакет как набрали', description: ['[[media]] 300 медиа токенов', '1 медиа токенов в подарок', '2,5 медиа токенов за отзыв'] };
    renderTariffs(fakeApi(NO_PLAN, { tariffs: () => Promise.resolve([...TARIFFS, typed]) }));
    expect((await plan('Старт')).getByText('30 медиа токенов в месяц', { exact: false })).toBeInTheDocument();
    expect((await plan('Пакет медиа')).getByText('+50 медиа токенов', { exact: false })).toBeInTheDocument();
    const lines = (await plan('Пакет как набрали')).getAllByRole('listitem').map((li) => li.textContent.trim());
    expect(lines).toEqual(['300 медиа токенов', '1 медиа токен в подарок', '2,5 медиа токена за отзыв']);
  });

  it('a plan without a trial shows no trial line: a monthly plan, and a trial plan without days or price', async () => {
    const noDays = { ...(TARIFFS[0] as (typeof TARIFFS)[number]), id: 7, name: 'Без дней', trial_days: 0 };
    const noPrice = { ...(TARIFFS[0] as (typeof TARIFFS)[number]), id: 8, name: 'Без цены', first_amount: null };
    renderTariffs(fakeApi(NO_PLAN, { tariffs: () => Promise.resolve([TARIFFS[2] as (typeof TARIFFS)[number], noDays, noPrice]) }));
    for (const name of ['Бизнес', 'Без дней', 'Без цены']) {
      const card = await plan(name);
      expect(card.queryByText(/^за \d/)).toBeNull();
      expect(card.getByText('в месяц')).toBeInTheDocument();
      expect(card.getByRole('button', { name: 'Подписаться' })).toBeInTheDocument();
    }
  });

  it('a cancelled plan shows «Подписка отменена» on reload and packages look disabled', async () => {
    renderTariffs(fakeApi(PRO_CANCELLED));
    const pro = await plan('Про');
    expect(pro.getByRole('button', { name: 'Подписка отменена' })).toBeDisabled();
    expect(pro.queryByRole('button', { name: 'Отменить подписку' })).not.toBeInTheDocument();
    expect((await plan('Пакет медиа')).getByRole('button', { name: 'Купить' })).toHaveAttribute('aria-disabled', 'true');
  });

  it.each([
    ['without a plan', NO_PLAN, 'Покупка пакетов доступна только при активной подписке'],
    ['after cancel', PRO_CANCELLED, 'Подписка отменена: пополнение токенов недоступно до конца периода'],
  ])('a package that looks disabled explains why %s instead of paying', async (_case, check, reason) => {
    const api = fakeApi(check);
    const widget = fakeWidget();
    renderTariffs(api, widget);
    const words = await plan('Пакет слов');
    await userEvent.click(words.getByRole('button', { name: 'Купить' }));
    expect(words.getByText(reason)).toBeInTheDocument();
    expect(api.paymentKey).not.toHaveBeenCalled();
    expect(api.payPackage).not.toHaveBeenCalled();
    expect(widget.charge).not.toHaveBeenCalled();
  });
});

describe('Tariffs: cards', () => {
  it('shows prices: trial price then the monthly one, monthly, one-off', async () => {
    renderTariffs(fakeApi(NO_PLAN));
    const start = await plan('Старт');
    expect(start.getByText('99 ₽')).toBeInTheDocument();
    expect(start.getByText('за 3 дня')).toBeInTheDocument();
    expect(start.getByText('потом 490 ₽/мес')).toBeInTheDocument();
    const business = await plan('Бизнес');
    expect(business.getByText('2 490 ₽')).toBeInTheDocument();
    expect(business.getByText('в месяц')).toBeInTheDocument();
    const words = await plan('Пакет слов');
    expect(words.getByText('290 ₽')).toBeInTheDocument();
    expect(words.getByText('разовая покупка')).toBeInTheDocument();
  });

  it('renders the icon markers as icons and marks the popular plan', async () => {
    const { container } = renderTariffs(fakeApi(NO_PLAN));
    const pro = await plan('Про');
    expect(pro.getByRole('img', { name: 'слова' })).toBeInTheDocument();
    expect(pro.getByRole('img', { name: 'медиа токены' })).toBeInTheDocument();
    expect(pro.getByText('300 000 слов в месяц', { exact: false })).toBeInTheDocument();
    expect(container.textContent).not.toContain('[[');
    expect(screen.getAllByText('Популярный')).toHaveLength(1);
    expect(pro.getByText('Популярный')).toBeInTheDocument();
  });

  it('shows the sandbox label with the test cards', async () => {
    renderTariffs(fakeApi(NO_PLAN), fakeWidget(), { sandbox: true });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Тестовый режим оплаты');
    expect(note).toHaveTextContent('4242 4242 4242 4242 — успешная оплата');
    expect(note).toHaveTextContent('4012 8888 8888 1881 — отказ');
  });

  it('has no sandbox label outside the sandbox', async () => {
    renderTariffs(fakeApi(NO_PLAN));
    await plan('Про');
    expect(screen.queryByText('Тестовый режим оплаты')).not.toBeInTheDocument();
  });

  it('says up front that paying is unavailable, and every buy button says so instead of starting a payment', async () => {
    const api = fakeApi(ON_PRO);
    const widget = fakeWidget();
    renderTariffs(api, widget, { paymentsOff: true });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Оплата временно недоступна');
    expect(note).toHaveTextContent('Сейчас нельзя оформить подписку или купить пакет');
    expect(screen.queryByText('Тестовый режим оплаты')).not.toBeInTheDocument();
    const subscribe = (await plan('Бизнес')).getByRole('button', { name: 'Подписаться' });
    expect(subscribe).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(subscribe);
    expect(await (await plan('Бизнес')).findByText('Оплата временно недоступна. Попробуйте позже')).toBeInTheDocument();
    const buy = (await plan('Пакет слов')).getByRole('button', { name: 'Купить' });
    expect(buy).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(buy);
    expect(await (await plan('Пакет слов')).findByText('Оплата временно недоступна. Попробуйте позже')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.paySubscription).not.toHaveBeenCalled();
    expect(api.payPackage).not.toHaveBeenCalled();
    expect(widget.load).not.toHaveBeenCalled();
    // The current plan can still be cancelled.
    expect((await plan('Про')).getByRole('button', { name: 'Отменить подписку' })).toBeEnabled();
  });

  it('shows a load error and retries', async () => {
    const tariffs = vi.fn().mockRejectedValueOnce(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Сервис временно недоступен')).mockResolvedValueOnce(TARIFFS);
    renderTariffs(fakeApi(NO_PLAN, { tariffs: () => tariffs() as Promise<typeof TARIFFS> }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервис временно недоступен');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await plan('Про')).toBeDefined();
  });
});

describe('Tariffs: subscribing', () => {
  it('confirms first: what is charged now (trial, 3 days) and later; «Отмена» pays nothing', async () => {
    const api = fakeApi(NO_PLAN);
    renderTariffs(api);
    await userEvent.click((await plan('Про')).getByRole('button', { name: 'Попробовать за 149 р.' }));
    const dialog = screen.getByRole('dialog', { name: 'Подписка «Про»' });
    expect(dialog).toHaveTextContent('Сейчас спишем 149 ₽ за пробный период 3 дня. Затем — 990 ₽ каждый месяц с автопродлением.');
    expect(dialog).not.toHaveTextContent('заменён');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.paymentKey).not.toHaveBeenCalled();
  });

  it('warns that the current plan is replaced without proration', async () => {
    renderTariffs(fakeApi(ON_PRO));
    await userEvent.click((await plan('Бизнес')).getByRole('button', { name: 'Подписаться' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Сейчас спишем 2 490 ₽ за первый месяц.');
    expect(dialog).toHaveTextContent('Текущий тариф «Про» будет заменён новым без перерасчёта');
  });

  it('pays: key, script once, subscribe call, widget; then polls the payment until the server marks it paid', async () => {
    const pending = { payment_id: 42, kind: 'subscription' as const, status: 'pending' as const, message: null };
    const statuses = vi.fn().mockResolvedValueOnce(pending).mockResolvedValueOnce(pending).mockResolvedValue({ ...pending, status: 'paid' });
    const api = fakeApi([NO_PLAN, ON_PRO], { paymentStatus: () => statuses() as Promise<typeof pending> });
    const paymentStatus = api.paymentStatus;
    const order: string[] = [];
    vi.mocked(api.paymentKey).mockImplementation(() => (order.push('key'), Promise.resolve('pk_test')));
    const widget = fakeWidget({ status: 'success' }, { load: vi.fn(() => (order.push('script'), Promise.resolve())) });
    vi.mocked(api.paySubscription).mockImplementation((r) => (order.push('subscribe'), Promise.resolve(start(idOf(r), 149))));
    renderTariffs(api, widget);
    await userEvent.click((await plan('Про')).getByRole('button', { name: 'Попробовать за 149 р.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    const success = await screen.findByText(/Оплата прошла: тариф «Про» подключён/);
    expect(order).toEqual(['key', 'script', 'subscribe']);
    expect(widget.load).toHaveBeenCalledWith(SCRIPT);
    expect(api.paySubscription).toHaveBeenCalledWith({ query: { id: 2 } });
    expect(api.payPackage).not.toHaveBeenCalled();
    expect(widget.charge).toHaveBeenCalledWith(start(2, 149).options);
    expect(paymentStatus).toHaveBeenCalledTimes(3);
    expect(paymentStatus).toHaveBeenCalledWith({ query: { id: 42 } });
    expect(api.check).toHaveBeenCalledTimes(2);
    expect(within(success.closest('[role="status"]') as HTMLElement).getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/dashboard?payments=1');
    expect((await plan('Про')).getByRole('button', { name: 'Ваш тариф' })).toBeInTheDocument();
  });

  it('buys a package without a confirmation and shows «Покупка завершена» once the tokens arrive', async () => {
    const pending = { payment_id: 44, kind: 'package' as const, status: 'pending' as const, message: null };
    const statuses = vi.fn().mockResolvedValueOnce(pending).mockResolvedValueOnce(pending).mockResolvedValue({ ...pending, status: 'paid' });
    const api = fakeApi(ON_PRO, { paymentStatus: () => statuses() as Promise<typeof pending> });
    const paymentStatus = api.paymentStatus;
    const widget = fakeWidget();
    renderTariffs(api, widget);
    await userEvent.click((await plan('Пакет слов')).getByRole('button', { name: 'Купить' }));
    expect(await screen.findByText(/Покупка завершена: токены пакета «Пакет слов» зачислены/)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.payPackage).toHaveBeenCalledWith({ query: { id: 4 } });
    expect(api.paySubscription).not.toHaveBeenCalled();
    expect(paymentStatus).toHaveBeenCalledTimes(3);
    expect(paymentStatus).toHaveBeenCalledWith({ query: { id: 44 } });
    expect((await plan('Пакет слов')).getByRole('button', { name: 'Покупка завершена' })).toBeDisabled();
    expect((await plan('Пакет слов')).getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/dashboard?payments=1');
    expect((await plan('Пакет медиа')).getByRole('button', { name: 'Купить' })).toBeEnabled();
  });

  it.each([
    ['the key call fails (no reply)', { paymentKey: () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером')) }, {}, 'Произошла ошибка'],
    ['the script fails to load', {}, { load: vi.fn().mockRejectedValue(new Error('Payment script failed to load')) }, 'Произошла ошибка'],
    ['the subscribe call fails without a message', { paySubscription: () => Promise.reject(new ApiError(500, undefined, { unexpected: 1 })) }, {}, 'Произошла ошибка'],
    ['the subscribe call fails with the server’s message', { paySubscription: () => Promise.reject(new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'Платёжный сервис недоступен. Попробуйте позже')) }, {}, 'Платёжный сервис недоступен. Попробуйте позже'],
    ['the widget throws', {}, { charge: vi.fn().mockRejectedValue(new Error('cp is not defined')) }, 'Произошла ошибка'],
  ])('a failed start shows an error when %s', async (_case, apiOverrides: Overrides, widgetOverrides: Partial<PaymentWidget>, message) => {
    const api = fakeApi(NO_PLAN, apiOverrides);
    renderTariffs(api, fakeWidget({ status: 'success' }, widgetOverrides));
    await userEvent.click((await plan('Бизнес')).getByRole('button', { name: 'Подписаться' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(new RegExp(`^${message}$`));
    expect(api.check).toHaveBeenCalledTimes(1);
    expect((await plan('Бизнес')).getByRole('button', { name: 'Подписаться' })).toBeEnabled();
  });

  it('a declined card shows the reason and changes nothing', async () => {
    const api = fakeApi(NO_PLAN);
    renderTariffs(api, fakeWidget({ status: 'fail', reason: 'Недостаточно средств на карте' }));
    await userEvent.click((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    expect(await (await plan('Старт')).findByRole('alert')).toHaveTextContent('Оплата не прошла: Недостаточно средств на карте');
    expect(api.check).toHaveBeenCalledTimes(1);
    expect((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' })).toBeEnabled();
  });

  it('closing the payment form changes nothing and says nothing', async () => {
    const api = fakeApi(NO_PLAN);
    const widget = fakeWidget({ status: 'closed' });
    renderTariffs(api, widget);
    await userEvent.click((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Попробовать за 99 р.' })).toBeEnabled());
    expect(widget.charge).toHaveBeenCalledTimes(1);
    expect(api.check).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('when the server has not confirmed in time, says so instead of success', async () => {
    const api = fakeApi(NO_PLAN, { paymentStatus: () => Promise.resolve({ payment_id: 41, kind: 'subscription' as const, status: 'pending' as const, message: null }) });
    const paymentStatus = api.paymentStatus;
    renderTariffs(api, fakeWidget(), { pollAttempts: 3 });
    await userEvent.click((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    expect(await screen.findByText(/подтверждение от платёжной системы ещё не пришло/)).toBeInTheDocument();
    expect(paymentStatus).toHaveBeenCalledTimes(3);
    expect(api.check).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Ваш тариф' })).not.toBeInTheDocument();
  });
});

describe('Tariffs: cancelling', () => {
  it('asks with exactly «Да» / «Нет»; «Нет» keeps the plan', async () => {
    const api = fakeApi(ON_PRO);
    renderTariffs(api);
    await userEvent.click((await plan('Про')).getByRole('button', { name: 'Отменить подписку' }));
    const dialog = screen.getByRole('dialog', { name: 'Отменить подписку?' });
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Нет', 'Да']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Нет' }));
    expect(api.cancel).not.toHaveBeenCalled();
    expect((await plan('Про')).getByRole('button', { name: 'Ваш тариф' })).toBeInTheDocument();
  });

  it('«Да» cancels: the plan shows «Подписка отменена» and packages look disabled', async () => {
    const api = fakeApi(ON_PRO);
    renderTariffs(api);
    await userEvent.click((await plan('Про')).getByRole('button', { name: 'Отменить подписку' }));
    await userEvent.click(screen.getByRole('button', { name: 'Да' }));
    expect(api.cancel).toHaveBeenCalledTimes(1);
    expect(await (await plan('Про')).findByRole('button', { name: 'Подписка отменена' })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect((await plan('Пакет слов')).getByRole('button', { name: 'Купить' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('a failed cancel shows «Произошла ошибка» and keeps the plan', async () => {
    const api = fakeApi(ON_PRO, { cancel: () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером')) });
    renderTariffs(api);
    await userEvent.click((await plan('Про')).getByRole('button', { name: 'Отменить подписку' }));
    await userEvent.click(screen.getByRole('button', { name: 'Да' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Произошла ошибка$/);
    expect((await plan('Про')).getByRole('button', { name: 'Ваш тариф' })).toBeInTheDocument();
  });

  it('a payment the server did not accept (a second trial) says why and that the money comes back, not success', async () => {
    const message = 'Пробный период уже использован: тариф не подключён, деньги вернутся на карту.';
    const api = fakeApi(NO_PLAN, { paymentStatus: () => Promise.resolve({ payment_id: 41, kind: 'subscription' as const, status: 'failed' as const, message }) });
    renderTariffs(api, fakeWidget(), { pollAttempts: 3 });
    await userEvent.click((await plan('Старт')).getByRole('button', { name: 'Попробовать за 99 р.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    expect(await screen.findByText(new RegExp(message.slice(0, 30)))).toBeInTheDocument();
    expect(screen.queryByText(/подключён\./)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ваш тариф' })).not.toBeInTheDocument();
  });
});
