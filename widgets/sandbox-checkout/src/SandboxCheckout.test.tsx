import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type SandboxCheckoutMessage } from '@app/contracts/browser';
import { TEST_CARDS } from '@app/contracts/test-cards';
import { fakeRoute } from '@app/kit/test';
import { ApiError } from '@app/kit';
import { formatCardNumber, formatExpiry } from './card-format.ts';
import { SandboxCheckout } from './SandboxCheckout.tsx';

const payment = { payment_id: 41, amount: 990, description: 'Нейростудия: подписка «Стандарт»', email: 'anna@example.ru', recurrent: true };

function fakeApi(charge: () => Promise<unknown> = vi.fn().mockResolvedValue({ success: true, reason: null, transaction_id: 501 })) {
  return { charge: fakeRoute(billingEndpoints.sandboxCharge, charge as () => Promise<{ success: boolean; reason: string | null; transaction_id: number }>) };
}

async function fillCard(number: string) {
  await userEvent.type(screen.getByLabelText('Номер карты'), number);
  await userEvent.type(screen.getByLabelText('Срок действия'), '1229');
  await userEvent.type(screen.getByLabelText('CVV'), '123');
}

const pay = () => userEvent.click(screen.getByRole('button', { name: /^Оплатить/ }));

describe('SandboxCheckout', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is clearly labelled as a sandbox and shows the amount and description', () => {
    render(<SandboxCheckout {...payment} api={fakeApi()} />);
    expect(screen.getByText('Тестовая оплата — деньги не списываются')).toBeInTheDocument();
    expect(screen.getByText('990 ₽')).toBeInTheDocument();
    expect(screen.getByText(payment.description)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Оплатить 990 ₽' })).toBeInTheDocument();
  });

  it('formats the card number in groups of 4 and the expiry as ММ/ГГ while typing', async () => {
    render(<SandboxCheckout {...payment} api={fakeApi()} />);
    await fillCard('4242abc424242424242');
    expect(screen.getByLabelText('Номер карты')).toHaveValue('4242 4242 4242 4242');
    expect(screen.getByLabelText('Срок действия')).toHaveValue('12/29');
    expect(screen.getByLabelText('CVV')).toHaveValue('123');
    expect(formatCardNumber('4012888888881881999')).toBe('4012 8888 8888 1881');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
  });

  it('fills a test card on click', async () => {
    render(<SandboxCheckout {...payment} api={fakeApi()} />);
    await userEvent.click(screen.getByRole('button', { name: /Подставить карту 4012 8888 8888 1881/ }));
    expect(screen.getByLabelText('Номер карты')).toHaveValue('4012 8888 8888 1881');
    expect(screen.getByLabelText<HTMLInputElement>('Срок действия').value).toMatch(/^\d{2}\/\d{2}$/);
    expect(screen.getByLabelText('CVV')).toHaveValue('123');
  });

  it('validates with the contract’s messages without calling the server', async () => {
    const api = fakeApi();
    render(<SandboxCheckout {...payment} api={api} />);
    await userEvent.type(screen.getByLabelText('Номер карты'), '4242');
    await pay();
    expect(screen.getByText('Номер карты состоит из 16 цифр')).toBeInTheDocument();
    expect(screen.getByText('Срок действия в формате ММ/ГГ')).toBeInTheDocument();
    expect(screen.getByText('CVV состоит из 3 цифр')).toBeInTheDocument();
    expect(api.charge).not.toHaveBeenCalled();
  });

  it('charges and posts success to the opening page on the same origin', async () => {
    const postMessage = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => undefined);
    const api = fakeApi();
    render(<SandboxCheckout {...payment} api={api} />);
    await fillCard('4242424242424242');
    await pay();
    expect(api.charge).toHaveBeenCalledWith({ body: { payment_id: 41, card_number: TEST_CARDS.success, exp: '12/29', cvv: '123' } });
    expect(await screen.findByText('Оплата прошла успешно. Окно сейчас закроется.')).toBeInTheDocument();
    const sent: SandboxCheckoutMessage = { type: 'sandbox-cloudpayments', status: 'success', reason: null, transaction_id: 501 };
    expect(postMessage).toHaveBeenCalledWith(sent, window.location.origin);
  });

  it('shows a decline reason and posts fail with it', async () => {
    const post = vi.fn();
    render(<SandboxCheckout {...payment} api={fakeApi(vi.fn().mockResolvedValue({ success: false, reason: 'Недостаточно средств на карте', transaction_id: 502 }))} post={post} />);
    await fillCard(TEST_CARDS.declined);
    await pay();
    expect(await screen.findByRole('alert')).toHaveTextContent('Оплата не прошла: Недостаточно средств на карте');
    expect(post).toHaveBeenCalledWith({ type: 'sandbox-cloudpayments', status: 'fail', reason: 'Недостаточно средств на карте', transaction_id: 502 });
  });

  it('«Закрыть» posts close', async () => {
    const post = vi.fn();
    render(<SandboxCheckout {...payment} api={fakeApi()} post={post} />);
    await userEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(post).toHaveBeenCalledWith({ type: 'sandbox-cloudpayments', status: 'close', reason: null, transaction_id: null });
  });

  it('shows server errors per seed §8 and posts nothing', async () => {
    const post = vi.fn();
    render(<SandboxCheckout {...payment} api={fakeApi(vi.fn().mockRejectedValue(new ApiError(400, 'BAD_REQUEST', '"Этот счёт уже оплачен"')))} post={post} />);
    await fillCard(TEST_CARDS.success);
    await pay();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Этот счёт уже оплачен$/);
    expect(post).not.toHaveBeenCalled();
  });

  it('puts per-field server errors beside the fields', async () => {
    render(<SandboxCheckout {...payment} api={fakeApi(vi.fn().mockRejectedValue(new ApiError(400, 'VALIDATION', { cvv: ['CVV состоит из 3 цифр'] })))} post={vi.fn()} />);
    await fillCard(TEST_CARDS.success);
    await pay();
    expect(await screen.findByText('CVV состоит из 3 цифр')).toBeInTheDocument();
    expect(screen.getByLabelText('CVV')).toHaveAttribute('aria-invalid', 'true');
  });
});
