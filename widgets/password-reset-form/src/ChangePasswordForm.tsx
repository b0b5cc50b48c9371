import { Button, Card, EmailText, navigate, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { resetPasswordApi, type ResetPasswordApi } from './api.ts';
import { useChangePasswordForm, type ChangePasswordValues } from './use-change-password-form.ts';

export interface ChangePasswordFormViewProps {
  /** The account; shown, not edited. */
  email: string;
  /** Signed in with a temporary password (admin:create): it must be changed before anything else. */
  temporary: boolean;
  /** The account was just made staff (admin:create): its own password must be replaced before anything else. */
  staff?: boolean;
  form: ContractForm<ChangePasswordValues>;
}

/** The password change, with every state driven by props. */
export function ChangePasswordFormView({ email, temporary, staff = false, form }: ChangePasswordFormViewProps) {
  return (
    <Card className="auth-card">
      <h1 className="card__title">{temporary ? 'Смените временный пароль' : staff ? 'Задайте новый пароль' : 'Смена пароля'}</h1>
      <p className="card__subtitle">
        {temporary ? (
          <>
            Вы вошли как <strong className="reset-request__email"><EmailText email={email} /></strong> с временным паролем. Придумайте свой — до этого остальные страницы не откроются.
          </>
        ) : staff ? (
          <>
            Аккаунт <strong className="reset-request__email"><EmailText email={email} /></strong> назначен администратором. Задайте новый пароль, не такой, как прежний — до этого остальные страницы и админка не откроются.
          </>
        ) : (
          <>
            Новый пароль для <strong className="reset-request__email"><EmailText email={email} /></strong>. На других устройствах вход нужно будет выполнить заново.
          </>
        )}
      </p>
      <ContractFormView form={form}>
        {/* Lets password managers save the new password for the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <FormField form={form.form} name="current_password" label={temporary ? 'Временный пароль' : 'Текущий пароль'} type="password" autoComplete="current-password" autoFocus required />
        <FormField form={form.form} name="password" label="Новый пароль" type="password" autoComplete="new-password" hint={temporary ? 'Не короче 8 символов и не такой, как временный' : staff ? 'Не короче 8 символов и не такой, как прежний' : 'Не короче 8 символов'} required />
        <FormField form={form.form} name="password_confirmation" label="Повторите пароль" type="password" autoComplete="new-password" required />
        <Button type="submit" block busy={form.busy}>
          Сохранить пароль
        </Button>
      </ContractFormView>
      <div className="auth-card__footer">
        <a href="/logout">Выйти</a>
      </div>
    </Card>
  );
}

/** Changes the signed-in account's password, then opens `next` (what the person was going to). */
export function ChangePasswordForm({ email, temporary, staff = false, next, api = resetPasswordApi }: { email: string; temporary: boolean; staff?: boolean; next: string; api?: Pick<ResetPasswordApi, 'changePassword'> }) {
  const change = useRouteMutation(api.changePassword);
  const form = useChangePasswordForm({
    onSubmit: async (values) => {
      await change.mutateAsync({ body: values });
      navigate(next);
    },
  });
  return <ChangePasswordFormView email={email} temporary={temporary} staff={staff} form={form} />;
}
