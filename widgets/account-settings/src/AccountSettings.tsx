import { useState } from 'react';
import { PRIVACY_TEXTS, type NoticeSettings, type OptionalNoticeKind } from '@app/contracts/privacy';
import type { WidgetProps } from '@app/contracts/browser';
import { Alert, Button, Card, LoadError, Skeleton, clearToken, navigate, queryState, serverMessage, useRouteMutation, useRouteQuery, type LoadState } from '@app/kit';
import { ContractFormView, FormField, fieldMessages, type ContractForm } from '@app/kit/forms';
import { settingsApi, type SettingsApi } from './api.ts';
import { useDeleteForm, type DeleteValues } from './use-delete-form.ts';

type Notice = NoticeSettings['notices'][number];

export interface NoticesViewProps {
  state: LoadState<Notice[]>;
  /** What the boxes show now (the user's unsaved choice over what was loaded). */
  chosen: Partial<Record<OptionalNoticeKind, boolean>>;
  saving: boolean;
  /** After a save: its outcome. */
  outcome: { tone: 'success' | 'error'; text: string } | null;
  onToggle: (kind: OptionalNoticeKind, on: boolean) => void;
  onSave: () => void;
  onRetry: () => void;
}

const isOptional = (n: Notice): n is Notice & { kind: OptionalNoticeKind } => !n.required;

/** Which mails come: the charge notices always (shown ticked and locked), the others as the user chooses. */
export function NoticesView({ state, chosen, saving, outcome, onToggle, onSave, onRetry }: NoticesViewProps) {
  return (
    <Card title="Письма о подписке" className="settings-card">
      <p className="settings-card__lead">Письма перед списанием денег приходят всегда: в них сумма, дата и ссылка для отмены подписки. Остальные письма можно отключить.</p>
      {state.status === 'loading' && <Skeleton lines={4} />}
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status === 'ready' && (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            onSave();
          }}
        >
          <ul className="settings-notices">
            {state.data.map((n) => {
              const on = isOptional(n) ? (chosen[n.kind] ?? n.enabled) : true;
              return (
                <li key={n.kind} className="settings-notices__item">
                  <label className="consent">
                    <input type="checkbox" checked={on} disabled={n.required || saving} onChange={(e) => isOptional(n) && onToggle(n.kind, e.target.checked)} />
                    <span>
                      {n.label}
                      {n.required && <span className="settings-notices__required">Нельзя отключить: письмо перед списанием денег</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
          <div>
            <Button type="submit" busy={saving}>
              Сохранить
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

export interface DeleteAccountViewProps {
  email: string;
  plansUrl: string;
  form: ContractForm<DeleteValues>;
}

/** The deletion of the account: what goes and what stays, confirmed by the password and a box. */
export function DeleteAccountView({ email, plansUrl, form }: DeleteAccountViewProps) {
  const confirmErrors = fieldMessages(form.form, 'confirm');
  const confirm = form.form.register('confirm', { onChange: () => form.form.clearErrors('confirm') });
  return (
    <Card title="Удаление аккаунта" className="settings-card settings-card--danger">
      <p className="settings-card__lead">
        Аккаунт <strong className="settings-card__email">{email}</strong> будет удалён: подписка отменится без возврата оплаченного периода (<a href={plansUrl}>тарифы</a>), чаты, загруженные файлы и генерации
        удалятся безвозвратно, все входы завершатся. Сведения о платежах и движении токенов сохранятся обезличенно на 5 лет — этого требует закон о бухгалтерском учёте.
      </p>
      <ContractFormView form={form}>
        <FormField form={form.form} name="password" label="Пароль" type="password" autoComplete="current-password" required />
        <div className={`field field--checkbox${confirmErrors.length ? ' field--invalid' : ''}`}>
          <label className="consent">
            <input type="checkbox" {...confirm} aria-invalid={confirmErrors.length > 0 || undefined} />
            <span>Я понимаю, что аккаунт и его данные нельзя будет восстановить</span>
          </label>
          {confirmErrors.length > 0 && (
            <ul className="field__errors">
              {confirmErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <Button type="submit" variant="danger" busy={form.busy}>
            Удалить аккаунт
          </Button>
        </div>
      </ContractFormView>
    </Card>
  );
}

/** The settings page: notices and the deletion of the account. */
export function AccountSettings({ email, plansUrl, api = settingsApi }: WidgetProps<'account-settings'> & { api?: SettingsApi }) {
  const notices = useRouteQuery(api.notices, undefined, { select: (d: NoticeSettings) => d.notices });
  const save = useRouteMutation(api.saveNotices);
  const remove = useRouteMutation(api.deleteAccount);
  const [chosen, setChosen] = useState<Partial<Record<OptionalNoticeKind, boolean>>>({});
  const [outcome, setOutcome] = useState<NoticesViewProps['outcome']>(null);

  const onSave = () => {
    const loaded = notices.data ?? [];
    const value = (kind: OptionalNoticeKind) => chosen[kind] ?? loaded.find((n) => n.kind === kind)?.enabled ?? true;
    save.mutate(
      { body: { renewal_failed: value('renewal_failed'), plan_ended: value('plan_ended') } },
      {
        onSuccess: () => {
          void notices.refetch();
          setOutcome({ tone: 'success', text: PRIVACY_TEXTS.saved });
        },
        onError: (err) => setOutcome({ tone: 'error', text: serverMessage(err) }),
      },
    );
  };
  const form = useDeleteForm({
    onSubmit: async ({ password }) => {
      await remove.mutateAsync({ body: { password, confirm: true } });
      clearToken();
      navigate('/login?deleted=1');
    },
  });

  return (
    <div className="settings">
      <NoticesView
        state={queryState(notices)}
        chosen={chosen}
        saving={save.isPending}
        outcome={outcome}
        onToggle={(kind, on) => {
          setChosen((c) => ({ ...c, [kind]: on }));
          setOutcome(null);
        }}
        onSave={onSave}
        onRetry={() => void notices.refetch()}
      />
      <DeleteAccountView email={email} plansUrl={plansUrl} form={form} />
    </div>
  );
}
