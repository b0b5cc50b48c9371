import { useState, type SyntheticEvent } from 'react';
import { ChatRenameBodySchema } from '@app/contracts/browser';
import { Alert, ApiError, Button, Field, LazyDialog as Dialog } from '@app/kit';
import { callFailure } from './chat-utils.ts';
import { TEXTS } from './texts.ts';
import type { ChatEntry } from './types.ts';

/**
 * Renames a chat: the title is checked with the contract's schema (the server checks it with the
 * same one); a field message shows under the field, any other failure above it.
 */
export function RenameDialog({ chat, errors, onSubmit, onClose }: { chat: ChatEntry; errors?: Record<string, string[]>; onSubmit: (title: string) => Promise<unknown>; onClose: () => void }) {
  const [title, setTitle] = useState(chat.text);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<string[]>(errors?.title ?? []);
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = ChatRenameBodySchema.safeParse({ title });
    if (!parsed.success) {
      setFieldErrors(parsed.error.issues.slice(0, 1).map((issue) => issue.message));
      return;
    }
    setBusy(true);
    setFormError(null);
    onSubmit(parsed.data.title).then(onClose, (err: unknown) => {
      setBusy(false);
      const byField = err instanceof ApiError ? err.fields : {};
      if (byField.title) setFieldErrors(byField.title);
      else setFormError(callFailure(err));
    });
  };
  return (
    <Dialog title={TEXTS.renameTitle} dismissible={!busy} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <Field
          label={TEXTS.renameLabel}
          value={title}
          autoComplete="off"
          maxLength={200}
          errors={fieldErrors}
          onChange={(event) => {
            setTitle(event.target.value);
            setFieldErrors([]);
          }}
        />
        <div className="modal__footer">
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {TEXTS.cancel}
          </Button>
          <Button type="submit" busy={busy}>
            {TEXTS.save}
          </Button>
        </div>
      </form>
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
      <p className="chat-dialog__text">Чат «{chat.text}» и все его сообщения будут удалены. Это действие нельзя отменить.</p>
      {failed && <Alert>{failed}</Alert>}
    </Dialog>
  );
}
