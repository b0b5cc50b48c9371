import { useEffect, useRef, useState } from 'react';
import { ACCOUNT_TEXTS, ERROR_CODES, ResetPasswordBodySchema, type WidgetProps } from '@app/contracts/browser';
import { Button, Card, clearToken, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, useContractForm, type ContractForm } from '@app/kit/forms';
import { resetPasswordApi, type ResetPasswordApi } from './api.ts';

export type ResetPasswordValues = { password: string; password_confirmation: string; token: string; email: string };
const FIELDS = ['password', 'password_confirmation'] as const;

export interface ResetPasswordFormViewProps {
  /** The account the link was sent to; shown, not edited. */
  email: string;
  form: ContractForm<ResetPasswordValues>;
  /** The new password was saved: «Пароль сохранен». */
  saved: boolean;
}

/** The form: the contract's schema (the link's token and email ride along), with what a story or the container passes. */
export function useResetPasswordForm(options: { token: string; email: string; onSubmit: (values: ResetPasswordValues) => Promise<unknown>; values?: Partial<ResetPasswordValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<ResetPasswordValues> {
  const form = useContractForm(ResetPasswordBodySchema, {
    defaultValues: { password: '', password_confirmation: '', ...options.values, token: options.token, email: options.email },
    fields: FIELDS,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
  // A token or email that fails the check means a broken link, whatever the field's own message.
  return form.formErrors.length && !form.form.formState.isSubmitSuccessful && Object.keys(form.form.formState.errors).some((f) => f === 'token' || f === 'email') ? { ...form, formErrors: [ERROR_CODES.RESET_TOKEN_INVALID.message] } : form;
}

/** The form and its success message, with every state driven by props. */
export function ResetPasswordFormView({ email, form, saved }: ResetPasswordFormViewProps) {
  const savedTitle = useRef<HTMLHeadingElement>(null);
  // The form (and the focused button) goes away: keep the keyboard where the news is.
  useEffect(() => {
    if (saved) savedTitle.current?.focus();
  }, [saved]);
  const requestAgain = `/password/reset${email ? `?email=${encodeURIComponent(email)}` : ''}`;
  return (
    <Card className="auth-card">
      <div aria-live="polite">
        {saved && (
          <div className="reset-form__saved">
            <h1 className="card__title" ref={savedTitle} tabIndex={-1}>
              {ACCOUNT_TEXTS.passwordSaved}
            </h1>
            <p className="card__subtitle">Войдите с новым паролем. На других устройствах вход нужно будет выполнить заново.</p>
            <a className="btn btn-primary btn-block" href="/login">
              Войти
            </a>
          </div>
        )}
      </div>
      {!saved && (
        <>
          <h1 className="card__title">Новый пароль</h1>
          <p className="card__subtitle">
            {email ? (
              <>
                Придумайте новый пароль для <strong className="reset-request__email">{email}</strong>
              </>
            ) : (
              'Придумайте новый пароль для входа'
            )}
          </p>
          <ContractFormView form={form}>
            {/* Lets password managers save the new password for the right account. */}
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
            <FormField form={form.form} name="password" label="Новый пароль" type="password" autoComplete="new-password" hint="Не короче 8 символов" autoFocus required />
            <FormField form={form.form} name="password_confirmation" label="Повторите пароль" type="password" autoComplete="new-password" required />
            <Button type="submit" block busy={form.busy}>
              Сохранить пароль
            </Button>
          </ContractFormView>
          <div className="auth-card__footer">
            <span>
              Ссылка не работает? <a href={requestAgain}>Запросить новую</a>
            </span>
          </div>
        </>
      )}
    </Card>
  );
}

/** Sets a new password with the mailed link's token; every signed-in session of the account ends. */
export function ResetPasswordForm({ token, email, api = resetPasswordApi }: WidgetProps<'password-reset-form'> & { api?: ResetPasswordApi }) {
  const [saved, setSaved] = useState(false);
  const reset = useRouteMutation(api.resetPassword, {
    onSuccess: () => {
      // The server ended every session of the account, so a stored token is dead.
      clearToken();
      setSaved(true);
    },
  });
  const form = useResetPasswordForm({ token, email, onSubmit: (values) => reset.mutateAsync({ body: values }) });
  return <ResetPasswordFormView email={email} form={form} saved={saved} />;
}
