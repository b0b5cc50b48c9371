import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { ExportUserButton } from './ExportUserButton.tsx';
import { LegalDocuments } from './LegalDocuments.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

function renderWith(node: (api: AdminApi) => React.ReactNode, change: (api: AdminApi) => void = () => undefined) {
  const api = fakeAdminApi();
  change(api);
  render(<QueryProvider client={createQueryClient()}>{node(api)}</QueryProvider>);
  return { api, user: userEvent.setup() };
}

describe('Документы (policy and offer)', () => {
  it('edits the offer and publishes a new version; the button waits for a change', async () => {
    const { api, user } = renderWith((a) => <LegalDocuments api={a} />);
    const publish = vi.spyOn(api, 'publishLegal');
    expect(await screen.findByText(/Действует редакция 1/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Публичная оферта' }));
    const text = await screen.findByLabelText(/Текст/);
    expect((text as HTMLTextAreaElement).value).toMatch(/^Публичная оферта/);
    expect(screen.getByRole('button', { name: 'Опубликовать новую редакцию' })).toBeDisabled();
    await user.clear(text);
    await user.type(text, 'Новая оферта');
    await user.click(screen.getByRole('button', { name: 'Опубликовать новую редакцию' }));
    await waitFor(() => expect(publish).toHaveBeenCalledWith({ params: { kind: 'offer' }, body: { body: 'Новая оферта' } }));
    expect(await screen.findByText('Опубликована редакция 2: страница уже показывает её')).toBeTruthy();
    expect(screen.getByText(/Действует редакция 2/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'открыть страницу' })).toHaveAttribute('href', '/offer');
  });

  it('shows the server’s refusal and keeps the text', async () => {
    const { user } = renderWith(
      (a) => <LegalDocuments api={a} />,
      (a) => {
        vi.spyOn(a, 'publishLegal').mockRejectedValue(new ApiError(400, 'VALIDATION', { body: ['Текст содержит недопустимые символы'] }));
      },
    );
    const text = await screen.findByLabelText(/Текст/);
    await user.type(text, ' дополнение');
    await user.click(screen.getByRole('button', { name: 'Опубликовать новую редакцию' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect((text as HTMLTextAreaElement).value).toMatch(/дополнение$/);
    expect(screen.getByText(/Действует редакция 1/)).toBeTruthy();
  });
});

describe('Выгрузить данные (JSON)', () => {
  it('downloads the user’s data as user-<id>.json', async () => {
    const created: Blob[] = [];
    Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:x'), revokeObjectURL: () => undefined });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { api, user } = renderWith((a) => <ExportUserButton api={a} userId={42} />);
    const exportUser = vi.spyOn(api, 'exportUser');
    await user.click(screen.getByRole('button', { name: 'Выгрузить данные (JSON)' }));
    await waitFor(() => expect(clicked).toEqual(['user-42.json']));
    expect(exportUser).toHaveBeenCalledWith({ params: { id: 42 } });
    expect(created).toHaveLength(1);
    expect(JSON.parse((await created[0]?.text()) ?? '')).toMatchObject({ user: { id: 42 } });
  });

  it('says why an export failed', async () => {
    const { user } = renderWith(
      (a) => <ExportUserButton api={a} userId={7} />,
      (a) => {
        vi.spyOn(a, 'exportUser').mockRejectedValue(new ApiError(404, 'NOT_FOUND', 'Не найдено'));
      },
    );
    await user.click(screen.getByRole('button', { name: 'Выгрузить данные (JSON)' }));
    expect(within(await screen.findByRole('alert')).getByText('Не найдено')).toBeTruthy();
  });
});
