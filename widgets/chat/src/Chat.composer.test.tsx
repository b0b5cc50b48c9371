import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderChat, input, sendButton, png, jpeg, attach, ready, resetBetweenTests, priceText } from './chat-test-kit.tsx';

resetBetweenTests();

describe('Chat: the composer', () => {
  it('Enter sends, Shift+Enter makes a new line, Enter that ends an IME composition does not send', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Первая строка{Shift>}{Enter}{/Shift}вторая');
    expect(input()).toHaveValue('Первая строка\nвторая');
    fireEvent.keyDown(input(), { key: 'Enter', isComposing: true });
    fireEvent.keyDown(input(), { key: 'Enter', keyCode: 229 });
    expect(stream.fn).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(stream.fn).toHaveBeenCalledTimes(1);
    expect(stream.last().request.body).toEqual({ ai_models_id: 11, param: 'balanced', message: 'Первая строка\nвторая' });
    expect(input()).toHaveValue('');
  });

  it('the model select remembers the choice for the next visit and is locked while an answer is written', async () => {
    const first = fakeApi();
    const { unmount } = renderChat(first.api);
    await ready();
    const select = screen.getByRole('combobox', { name: 'Модель' });
    expect(select).toHaveValue('11:balanced');
    // A new chat with nothing typed: the price of an answer alone, and no estimate asked.
    expect(priceText()).toContain('до 3 000 слов за ответ');
    expect(first.api.estimate).not.toHaveBeenCalled();
    // What a send will cost once there is something to send: from a short answer to the longest (what the balance must hold).
    await userEvent.type(input(), 'П');
    await waitFor(() => expect(priceText()).toContain('Отправка: 10–3 000 слов'));
    await userEvent.selectOptions(select, 'Демо');
    await waitFor(() => expect(priceText()).toContain('Отправка: 10–500 слов · демо'));
    await userEvent.selectOptions(select, 'GPT-4o · Точно');
    await waitFor(() => expect(priceText()).toContain('Отправка: 10–12 000 слов'));
    await userEvent.selectOptions(select, 'Демо');
    await userEvent.type(input(), 'ривет{Enter}');
    expect(select).toBeDisabled();
    expect(first.stream.last().request.body).toEqual({ ai_models_id: 13, message: 'Привет' });
    unmount();
    renderChat(fakeApi().api);
    await ready();
    expect(screen.getByRole('combobox', { name: 'Модель' })).toHaveValue('13:');
  });

  it('an empty message is not sent: the schema’s message shows next to the composer', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), '   ');
    await userEvent.click(sendButton());
    expect(await screen.findByText('Введите сообщение')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(stream.fn).not.toHaveBeenCalled();
  });

  it('sends the chosen model and parameter with up to two images as image_example and image_example_2', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    const select = screen.getByRole('combobox', { name: 'Модель' });
    // A native select: each model with parameters is a group of them.
    expect(within(select).getByRole('group', { name: 'GPT-4o' })).toContainElement(within(select).getByRole('option', { name: 'GPT-4o · Точно' }));
    expect(within(select).getByRole('option', { name: 'Демо' })).toBeInTheDocument();
    await userEvent.selectOptions(select, 'GPT-4o · Точно');
    expect(select).toHaveValue('12:precise');
    expect(priceText()).toContain('до 12 000 слов за ответ');
    const first = png('первый.png');
    const second = jpeg('второй.jpg');
    await attach(first, second);
    expect(await screen.findByRole('button', { name: 'Убрать изображение «первый.png»' })).toBeInTheDocument();
    await userEvent.type(input(), 'Сравни{Enter}');
    expect(stream.last().request.body).toEqual({ ai_models_id: 12, param: 'precise', message: 'Сравни' });
    expect(stream.last().request.files).toEqual({ image_example: first, image_example_2: second });
    // The sent message shows at once with its images; the composer is empty again.
    const mine = screen.getAllByRole('article', { name: 'Вы' }).at(-1) as HTMLElement;
    expect(within(mine).getByText('Сравни')).toBeInTheDocument();
    expect(within(mine).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['первый.png', 'второй.jpg']);
    expect(screen.queryByRole('button', { name: /Убрать изображение/ })).not.toBeInTheDocument();
  });
});

describe('Chat: images are checked before anything is sent', () => {
  it('refuses a third image with «Не больше 2 изображений»', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    await attach(png('1.png'), png('2.png'));
    await screen.findByRole('button', { name: 'Убрать изображение «2.png»' });
    await attach(png('3.png'));
    expect(await screen.findByText('Не больше 2 изображений')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Убрать изображение/ })).toHaveLength(2);
    // Removing one makes room again.
    await userEvent.click(screen.getByRole('button', { name: 'Убрать изображение «1.png»' }));
    await attach(png('3.png'));
    expect(await screen.findByRole('button', { name: 'Убрать изображение «3.png»' })).toBeInTheDocument();
    expect(screen.queryByText('Не больше 2 изображений')).not.toBeInTheDocument();
  });

  it('refuses a type other than PNG or JPEG, by the declared type and by the first bytes', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['GIF89a'], 'анимация.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText(/Файл «анимация\.gif» — не PNG и не JPEG/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['%PDF-1.7 ...'], 'скан.png', { type: 'image/png' })] } });
    expect(await screen.findByText(/Файл «скан\.png» — не PNG и не JPEG/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Убрать изображение/ })).not.toBeInTheDocument();
  });

  it('refuses an image over the size limit', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    const big = png('огромный.png');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await attach(big);
    expect(await screen.findByText('Файл «огромный.png» больше 10 МБ')).toBeInTheDocument();
  });

  it('takes images dropped on the composer', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    const form = input().closest('form') as HTMLFormElement;
    fireEvent.dragOver(form, { dataTransfer: { types: ['Files'], files: [] } });
    expect(screen.getByText('Отпустите, чтобы прикрепить изображение')).toBeInTheDocument();
    fireEvent.drop(form, { dataTransfer: { types: ['Files'], files: [jpeg('перетащил.jpg')] } });
    expect(await screen.findByRole('button', { name: 'Убрать изображение «перетащил.jpg»' })).toBeInTheDocument();
    expect(screen.queryByText('Отпустите, чтобы прикрепить изображение')).not.toBeInTheDocument();
  });

  it('takes images pasted into the message', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    fireEvent.paste(input(), { clipboardData: { files: [png('вставка.png')], types: ['Files'] } });
    expect(await screen.findByRole('button', { name: 'Убрать изображение «вставка.png»' })).toBeInTheDocument();
  });
});
