import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryProvider, createQueryClient } from '@app/kit';
import { AuditTab } from './AuditTab.tsx';
import { actionLabel, changeLines, entityLabel } from './audit-texts.ts';
import { fakeAdminApi } from './fake-api.ts';
import { readListQuery } from './routes.ts';

/** Text with the non-breaking spaces of Russian number formatting read as spaces. */
const text = (t: string | null) => (t ?? '').replace(/\s+/g, ' ').trim();

async function renderLog() {
  render(
    <QueryProvider client={createQueryClient()}>
      <AuditTab api={fakeAdminApi()} query={readListQuery('', 'id')} navigate={() => undefined} />
    </QueryProvider>,
  );
  const table = await screen.findByRole('table');
  await within(table).findByText('Возврат платежа');
  /** The lines of the row whose action reads `action`. */
  const row = (action: string) => {
    const cell = within(table).getByText(action, { selector: 'td' });
    const tr = cell.closest('tr');
    if (!tr) throw new Error(`no row for ${action}`);
    return { tr, lines: Array.from(tr.querySelectorAll('li'), (li) => text(li.textContent)) };
  };
  return { table, row };
}

describe('the audit log in Russian', () => {
  it('the second factor: enrolment, a recovery code used, a reset by the server command', async () => {
    const { row, table } = await renderLog();
    expect(row('Подключение входа с кодом из приложения').lines).toEqual(['Вход с кодом из приложения: нет → да']);
    expect(row('Вход по резервному коду').tr.textContent).toContain('boris@example.ru');
    const reset = row('Сброс входа с кодом из приложения');
    expect(reset.lines).toEqual(['Вход с кодом из приложения: да → нет']);
    expect(reset.tr.textContent).toContain('команда на сервере');
    // A record whose staff member's account is gone still says so.
    expect(within(table).getAllByText('удалённый аккаунт')).toHaveLength(1);
  });

  it('names every action, record and field in Russian: no codes of the server reach the table', async () => {
    const { table } = await renderLog();
    expect(text(table.textContent)).not.toMatch(/content type|\bsize\b|category id|settings\.update|payment\.refund|tariff\.update|ai_model|user\.balance|refunded|refundable|welcome_words|sandbox_payments|media_price_tenths|#\d/);
  });

  it('a product: its category and model by name (a deleted one by number), a new example by its file, type and size', async () => {
    const { row } = await renderLog();
    expect(row('Изменение продукта').lines).toEqual(['Категория: Фото (№1) → №2']);
    expect(row('Замена примера продукта').lines).toEqual(['Пример: нет → файл №31', 'Тип файла: image/png', 'Размер файла: 245 КБ', 'Файл: открытка.png']);
  });

  it('a refund: its amount, reason and what was already returned, in roubles, never «refunded: 0 → —»', async () => {
    const { row } = await renderLog();
    const { tr, lines } = row('Возврат платежа');
    expect(lines).toEqual(['Сумма возврата: 490,5 ₽', 'Причина: Сбой генерации', 'Возврат: №4', 'Уже возвращено: 0 ₽', 'Возвращается: 0 ₽ → 490,5 ₽', 'Можно вернуть: 990 ₽ → 499,5 ₽']);
    expect(within(tr).getByRole('link', { name: 'Платёж №15' }).getAttribute('href')).toBe('/admin/payments?payment=15');
  });

  it('a balance adjustment says which wallet, and its amounts are in that wallet’s units', async () => {
    const { row } = await renderLog();
    const rows = screen.getAllByText('Корректировка баланса', { selector: 'td' }).map((cell) => Array.from(cell.closest('tr')?.querySelectorAll('li') ?? [], (li) => text(li.textContent)));
    expect(rows).toEqual([
      ['Кошелёк: медиа', 'Сумма: +2,5 медиа', 'Баланс: 22,0 медиа → 24,5 медиа', 'Причина: Сбой видео'],
      ['Кошелёк: слова', 'Сумма: +2 500 сл.', 'Баланс: 10 000 сл. → 12 500 сл.', 'Причина: Компенсация за сбой'],
    ]);
    expect(within(row('Изменение настроек').tr).getByRole('link', { name: 'Настройки' }).getAttribute('href')).toBe('/admin/settings');
  });

  it('settings, a plan and a new model: values formatted (numbers grouped, media with one decimal, «да/нет»), unchanged fields left out', async () => {
    const { row } = await renderLog();
    expect(row('Изменение настроек').lines).toEqual(['Слов в подарок: 10 000 → 12 000', 'Песочница оплаты: включена → выключена']);
    expect(row('Изменение тарифа').lines).toEqual(['Цена: 990 ₽ → 1 290 ₽', 'Медиа токенов за период: 50,0 → 75,5', 'Популярный: нет → да']);
    expect(row('Создание модели').lines).toEqual([
      'Тип: изображения',
      'Подключение: №2',
      'Модель у провайдера: demo-image',
      'Медиа токенов за изображение или ролик: 1,5',
      'Варианты параметров: Квадрат 1024×1024',
      'Название: Художник',
      'Включено: да',
    ]);
    const users = screen.getAllByText('Изменение пользователя', { selector: 'td' }).map((cell) => Array.from(cell.closest('tr')?.querySelectorAll('li') ?? [], (li) => text(li.textContent)));
    expect(users).toEqual([['Заблокирован: нет → да'], ['Роль: Пользователь → Администратор']]);
  });

  it('a code the panel does not know yet still reads as words', async () => {
    const { row } = await renderLog();
    const { tr, lines } = row('Действие «coupon refresh»');
    expect(lines).toEqual(['max uses: 10 → 20']);
    expect(text(tr.textContent)).toContain('Запись «coupon» «SPRING»');
    expect(actionLabel('coupon.create')).toBe('Создание записи «coupon»');
    expect(actionLabel('provider.delete')).toBe('Удаление подключения к провайдеру');
    expect(entityLabel('ai_product', '7')).toEqual({ text: 'Продукт №7', href: '/admin/ai-products/7' });
  });

  it('a plan created without a trial says so instead of a number of trial days', () => {
    const created = (plan: Record<string, unknown>) => changeLines('tariff', null, plan).find((l) => l.field === 'trial_days')?.after;
    expect(created({ name: 'Бизнес', subscriptions_type: 2, first_amount: null, trial_days: 3 })).toBe('без пробного периода');
    expect(created({ name: 'Пакет', subscriptions_type: 3, first_amount: null, trial_days: 3 })).toBe('без пробного периода');
    expect(created({ name: 'Старт', subscriptions_type: 1, first_amount: null, trial_days: 3 })).toBe('без пробного периода');
    expect(created({ name: 'Старт', subscriptions_type: 1, first_amount: 99, trial_days: 3 })).toBe('3');
  });

  it('a deleted record lists what it held; dates read in ru-RU', () => {
    expect(changeLines('dashboard_card', { name: 'Новости', active: true, created: '2026-11-20T12:00:00.000Z' }, null).map((l) => [l.label, l.before, text(l.after)])).toEqual([
      ['Показывается', null, 'да'],
      ['Название', null, 'Новости'],
      ['created', null, text(new Date('2026-11-20T12:00:00.000Z').toLocaleString('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }))],
    ]);
  });
});
