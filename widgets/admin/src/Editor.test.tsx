import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@app/kit';
import { Editor, serverFieldErrors, valueOf, type FieldSpec } from './Editor.tsx';

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Название', kind: 'text', required: true, maxLength: 20 },
  { name: 'amount', label: 'Цена, ₽', kind: 'number', required: true, min: 0 },
  { name: 'note', label: 'Заметка', kind: 'textarea' },
  { name: 'popular', label: 'Популярный', kind: 'checkbox' },
  { name: 'kind', label: 'Вид', kind: 'select', required: true, options: [{ value: 'a', label: 'Первый' }, { value: 'b', label: 'Второй' }] },
  { name: 'lines', label: 'Строки описания', kind: 'lines' },
];

describe('the admin editor', () => {
  it('turns what was typed into what the server takes', () => {
    expect(valueOf(FIELDS[1] as FieldSpec, '1 490'.replace(' ', ''))).toBe(1490);
    expect(valueOf(FIELDS[1] as FieldSpec, '2,5')).toBe(2.5);
    expect(valueOf(FIELDS[1] as FieldSpec, '')).toBeNull();
    expect(valueOf(FIELDS[2] as FieldSpec, '  ')).toBeNull();
    expect(valueOf(FIELDS[5] as FieldSpec, 'один\n\n  два  \n')).toEqual(['один', 'два']);
    expect(valueOf(FIELDS[3] as FieldSpec, true)).toBe(true);
  });

  it('maps the server’s field errors to fields, a list’s items to the list', () => {
    const err = new ApiError(400, 'VALIDATION', { name: ['Занято'], 'lines.1': ['Слишком длинная строка'], other: ['Что-то ещё'] });
    expect(serverFieldErrors(err, FIELDS)).toEqual({ name: 'Занято', lines: 'Слишком длинная строка', '': 'Что-то ещё' });
  });

  it('checks before sending, sends typed values, shows the server’s refusal by its field', async () => {
    const onSubmit = vi.fn((_values: unknown) => Promise.reject(new ApiError(400, 'VALIDATION', { name: ['Такое название уже есть'] })));
    const user = userEvent.setup();
    render(<Editor label="Тариф" fields={FIELDS} initial={{ kind: 'b', lines: ['[[words]] 10 000 слов'] }} submitLabel="Сохранить" onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getAllByText('Заполните поле')).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/Название/), 'Стандарт');
    await user.type(screen.getByLabelText(/Цена/), '-5');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByText('Не меньше 0')).toBeTruthy();
    await user.clear(screen.getByLabelText(/Цена/));
    await user.type(screen.getByLabelText(/Цена/), '990');
    await user.click(screen.getByLabelText('Популярный'));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Стандарт', amount: 990, note: null, popular: true, kind: 'b', lines: ['[[words]] 10 000 слов'] }));
    expect(await screen.findByText('Такое название уже есть')).toBeTruthy();
    expect(screen.getByLabelText(/Название/).getAttribute('aria-invalid')).toBe('true');
  });
});
