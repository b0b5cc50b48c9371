import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TariffInputSchema } from '@app/contracts/admin';
import { ApiError } from '@app/kit';
import { Editor, serverFieldErrors, valueOf, type FieldSpec } from './Editor.tsx';

/* The editor checks values with the contract's body schema (here a plan's), so the browser shows the server's own messages. */
const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 100 },
  { name: 'amount', label: 'Цена, ₽', kind: 'number', required: true },
  { name: 'first_amount', label: 'Первый платёж, ₽', kind: 'number', nullable: true },
  { name: 'subscriptions_type', label: 'Тип', kind: 'select', numeric: true, required: true, options: [{ value: '1', label: 'Месячный с пробным периодом' }, { value: '2', label: 'Месячный' }, { value: '3', label: 'Разовый пакет' }] },
  { name: 'words', label: 'Слова', kind: 'number', required: true },
  { name: 'media', label: 'Медиа токены', kind: 'number', required: true },
  { name: 'popular', label: 'Популярный', kind: 'checkbox' },
  { name: 'description', label: 'Строки описания', kind: 'lines' },
];
const field = (name: string) => FIELDS.find((f) => f.name === name) as FieldSpec;

describe('the admin editor', () => {
  it('turns what was typed into what the server takes', () => {
    expect(valueOf(field('amount'), '1 490')).toBe(1490);
    expect(valueOf(field('amount'), '2,5')).toBe(2.5);
    expect(valueOf(field('amount'), '')).toBeUndefined();
    expect(valueOf(field('first_amount'), '  ')).toBeNull();
    expect(valueOf(field('name'), '  Стандарт ')).toBe('Стандарт');
    expect(valueOf(field('subscriptions_type'), '3')).toBe(3);
    expect(valueOf(field('description'), 'один\n\n  два  \n')).toEqual(['один', 'два']);
    expect(valueOf(field('popular'), true)).toBe(true);
  });

  it('maps the server’s field errors to fields, a list’s items to the list, the rest to the form', () => {
    const err = new ApiError(400, 'VALIDATION', { name: ['Занято'], 'description.1': ['Слишком длинная строка'], other: ['Что-то ещё'] });
    expect(serverFieldErrors(err, FIELDS)).toEqual({ name: 'Занято', description: 'Слишком длинная строка', '': 'Что-то ещё' });
  });

  it('checks with the contract before sending (the server’s messages), sends the body the contract makes, shows the server’s refusal by its field', async () => {
    const onSubmit = vi.fn((_body: unknown) => Promise.reject(new ApiError(422, 'VALIDATION', { name: ['Такое название уже есть'] })));
    const user = userEvent.setup();
    render(<Editor label="Тариф" schema={TariffInputSchema} fields={FIELDS} initial={{ subscriptions_type: 3, description: ['[[words]] 10 000 слов', '[[coins]] монеты'] }} submitLabel="Сохранить" onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByText('Укажите название')).toBeTruthy();
    expect(screen.getByText('Укажите сумму числом')).toBeTruthy();
    expect(screen.getByText('Значки в описании: [[words]] и [[media]]')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/Название/), 'Пакет');
    await user.type(screen.getByLabelText(/^Цена/), '-5');
    await user.type(screen.getByLabelText(/Первый платёж/), '10');
    await user.type(screen.getByLabelText(/Слова/), '1000');
    await user.type(screen.getByLabelText(/Медиа/), '2,55');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByText('Сумма должна быть больше нуля')).toBeTruthy();
    expect(screen.getByText('У разового пакета нет первого платежа')).toBeTruthy();
    expect(screen.getByText('Не больше одного знака после запятой')).toBeTruthy();
    expect(screen.getByLabelText(/^Цена/).getAttribute('aria-invalid')).toBe('true');

    await user.clear(screen.getByLabelText(/^Цена/));
    await user.type(screen.getByLabelText(/^Цена/), '290');
    await user.clear(screen.getByLabelText(/Первый платёж/));
    await user.clear(screen.getByLabelText(/Медиа/));
    await user.type(screen.getByLabelText(/Медиа/), '2,5');
    await user.clear(screen.getByLabelText(/Строки описания/));
    await user.click(screen.getByLabelText(/Строки описания/));
    await user.paste('[[media]] 2,5 медиа токена');
    await user.click(screen.getByLabelText('Популярный'));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Пакет',
        amount: 290,
        first_amount: null,
        subscriptions_type: 3,
        words: 1000,
        media: 2.5,
        popular: true,
        description: ['[[media]] 2,5 медиа токена'],
        // The contract's defaults, filled in as the server would.
        currency_provider: 'RUB',
        trial_days: 3,
        sort: 0,
        active: true,
      }),
    );
    expect(await screen.findByText('Такое название уже есть')).toBeTruthy();
    expect(screen.getByLabelText(/Название/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a saved message belongs to the last save only: a change of the form, a field error or a refusal takes it away', async () => {
    const user = userEvent.setup();
    /** A screen as the plan editor is: it says «Сохранено…» once the server took the save. */
    function Screen({ save }: { save: () => Promise<void> }) {
      const [done, setDone] = useState<string | null>('Тариф создан.');
      return (
        <Editor
          label="Тариф"
          schema={TariffInputSchema}
          fields={FIELDS}
          initial={{ name: 'Пакет', amount: 290, subscriptions_type: 3, words: 1000, media: 2.5, description: [] }}
          submitLabel="Сохранить"
          done={done}
          onSubmit={async () => {
            setDone(null);
            await save();
            setDone('Сохранено.');
          }}
        />
      );
    }
    const save = vi.fn(() => Promise.resolve());
    render(<Screen save={save} />);
    // What the screen opened with shows until the form changes.
    expect(screen.getByRole('status').textContent).toBe('Тариф создан.');
    await user.type(screen.getByLabelText(/Название/), ' XL');
    expect(screen.queryByRole('status')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByRole('status')).textContent).toBe('Сохранено.');
    await user.type(screen.getByLabelText(/Слова/), '0');
    expect(screen.queryByRole('status')).toBeNull();

    // A field error after a save: no «Сохранено» beside it.
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await screen.findByRole('status');
    await user.clear(screen.getByLabelText(/^Цена/));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByText('Укажите сумму числом')).toBeTruthy();
    expect(screen.queryByText('Сохранено.')).toBeNull();

    // A refusal of the server: its message alone.
    await user.type(screen.getByLabelText(/^Цена/), '390');
    save.mockRejectedValueOnce(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Сервис временно недоступен'));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Сервис временно недоступен');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
