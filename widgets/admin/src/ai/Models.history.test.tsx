import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeAiApi } from './fake-api.ts';

/* A chat model's cap on the history it gets with each message (staff's setting, `history_messages`). */

function setup(path: string) {
  window.history.replaceState(null, '', path);
  const api: AdminApi = { ...fakeAdminApi(), ...fakeAiApi() };
  const updateAiModel = vi.spyOn(api, 'updateAiModel');
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { updateAiModel, user: userEvent.setup() };
}

const form = (name: string) => screen.findByRole('form', { name });
const LABEL = 'Сколько последних сообщений чата отправлять';
/** The body of the `n`-th update call. */
const sent = (spy: ReturnType<typeof setup>['updateAiModel'], n: number): unknown => {
  const body = spy.mock.calls[n]?.[0]?.body;
  return body instanceof FormData ? null : body?.history_messages;
};

describe('models: the history a chat model gets', () => {
  it('staff say how many of the latest messages go with each one; empty is the whole window, out of range is refused before sending', async () => {
    const { updateAiModel, user } = setup('/admin/ai-models/3');
    const editor = await form('Модель');
    const cap = within(editor).getByLabelText<HTMLInputElement>(LABEL);
    expect(cap.value).toBe('');
    expect(cap.getAttribute('placeholder')).toBe('Все, до 20');
    expect(within(editor).getByText(/С каждым сообщением модель заново читает историю чата/)).toBeTruthy();
    await user.type(cap, '21');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    expect(await within(editor).findByText('Сообщений истории: от 0 до 20')).toBeTruthy();
    expect(updateAiModel).not.toHaveBeenCalled();
    await user.clear(cap);
    await user.type(cap, '6');
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(updateAiModel).toHaveBeenCalledTimes(1));
    expect(updateAiModel.mock.calls[0]?.[0]?.params).toEqual({ id: 3 });
    expect(sent(updateAiModel, 0)).toBe(6);
    await user.clear(cap);
    await user.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(updateAiModel).toHaveBeenCalledTimes(2));
    expect(sent(updateAiModel, 1)).toBeNull();
  });

  it('an image model has no history cap to set', async () => {
    setup('/admin/ai-models/4');
    const image = await form('Модель');
    expect(within(image).getByLabelText<HTMLSelectElement>(/Тип/).value).toBe('image');
    expect(within(image).queryByLabelText(LABEL)).toBeNull();
  });
});
