import { useState } from 'react';
import { ChatRenameBodySchema } from '@app/contracts/browser';
import { Alert, ApiError, Button } from '@app/kit';
import { Dialog } from '@app/kit/dialog';
import { ContractFormView, FormField, useContractForm } from '@app/kit/forms';
import { cutTitle, callFailure } from './chat-utils.ts';
import { TEXTS } from './texts.ts';
import type { ChatEntry } from './types.ts';

/** Renames a chat: the title is checked with the contract's schema; the server's field message shows under the field. */
export function RenameDialog({ chat, errors, onSubmit, onClose }: { chat: ChatEntry; errors?: Record<string, string[]>; onSubmit: (title: string) => Promise<unknown>; onClose: () => void }) {
  const form = useContractForm(ChatRenameBodySchema, {
    defaultValues: { title: chat.text },
    errors,
    onSubmit: async (values) => {
      try {
        await onSubmit(values.title);
      } catch (err) {
        // Per-field messages go under the field; anything else is the chat's message (seed §8).
        if (err instanceof ApiError && Object.keys(err.fields).length > 0) throw err;
        throw new ApiError(err instanceof ApiError ? err.status : 0, undefined, callFailure(err));
      }
      onClose();
    },
  });
  return (
    <Dialog title={TEXTS.renameTitle} dismissible={!form.busy} onClose={onClose}>
      <ContractFormView form={form}>
        <FormField form={form.form} name="title" label={TEXTS.renameLabel} autoComplete="off" maxLength={200} />
        <div className="modal__footer">
          <Button variant="secondary" disabled={form.busy} onClick={onClose}>
            {TEXTS.cancel}
          </Button>
          <Button type="submit" busy={form.busy}>
            {TEXTS.save}
          </Button>
        </div>
      </ContractFormView>
    </Dialog>
  );
}

/** Asks before deleting a chat with its messages. */
export function DeleteDialog({ chat, error, onConfirm, onClose }: { chat: ChatEntry; error: string | null; onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(error);
  const confirm = () => {
    setBusy(true);
    setFailed(null);
    onConfirm().then(onClose, (err: unknown) => {
      setBusy(false);
      setFailed(callFailure(err));
    });
  };
  return (
    <Dialog
      title={TEXTS.deleteTitle}
      dismissible={!busy}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {TEXTS.cancel}
          </Button>
          <Button variant="danger" busy={busy} onClick={confirm}>
            {TEXTS.deleteConfirm}
          </Button>
        </>
      }
    >
      <p>Чат «{cutTitle(chat.text)}» и все его сообщения будут удалены. Это действие нельзя отменить.</p>
      {failed && <Alert>{failed}</Alert>}
    </Dialog>
  );
}
