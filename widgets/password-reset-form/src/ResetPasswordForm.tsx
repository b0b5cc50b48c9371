import { useEffect, useRef, useState } from 'react';
import { ACCOUNT_TEXTS, CLIENT_ERRORS } from '@app/contracts/browser';
import { EmailText, Button, Card, Skeleton, clearToken, useRouteMutation, useRouteQuery } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { resetPasswordApi, type ResetPasswordApi } from './api.ts';
import { useResetPasswordForm, type ResetPasswordValues } from './use-reset-password-form.ts';


export interface ResetPasswordFormViewProps {
  /** The account the link was sent to; shown, not edited. */
  email: string;
  form: ContractForm<ResetPasswordValues>;
  /** The new password was saved: «Пароль сохранен». */
  saved: boolean;
  /** Whether the link can still set a password, as the server answered (`checking` until it has). */
  link: 'checking' | 'valid' | 'invalid';
}


/** The form and its success message, with every state driven by props. */
export function ResetPasswordFormView({ email, form, saved, link }: ResetPasswordFormViewProps) {
  const savedTitle = useRef<HTMLHeadingElement>(null);
  // The form (and the focused button) goes away: keep the keyboard where the news is.
  useEffect(() => {
    if (saved) savedTitle.current?.focus();
  }, [saved]);
  const requestAgain = `/password/reset${email ? `?email=${encodeURIComponent(email)}` : ''}`;
  if (link === 'checking') {
    return (
      <Card className="auth-card">
        <h1 className="card__title">Новый пароль</h1>
        <p className="card__subtitle">Проверяем ссылку…</p>
        <Skeleton lines={3} />
      </Card>
    );
  }
  if (link === 'invalid' && !saved) {
    return (
      <Card className="auth-card">
        <div className="reset-form__expired" role="alert">
          <h1 className="card__title">Ссылка больше не действует</h1>
          <p className="card__subtitle">{CLIENT_ERRORS.RESET_TOKEN_INVALID}: её уже использовали или прошло больше часа. Запросите новую — письмо придёт за минуту.</p>
        </div>
        <a className="btn btn-primary btn-block" href={requestAgain}>
          Запросить новую ссылку
        </a>
        <div className="auth-card__footer">
          <a href="/login">Вернуться ко входу</a>
        </div>
      </Card>
    );
  }
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
                Придумайте новый пароль для <strong className="reset-request__email"><EmailText email={email} /></strong>
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
export function ResetPasswordForm({ token, email, api = resetPasswordApi }: { token: string; email: string; api?: Pick<ResetPasswordApi, 'check' | 'resetPassword'> }) {
  const [saved, setSaved] = useState(false);
  const reset = useRouteMutation(api.resetPassword, {
    onSuccess: () => {
      // The server ended every session of the account, so a stored token is dead.
      clearToken();
      setSaved(true);
    },
  });
  const form = useResetPasswordForm({ token, email, onSubmit: (values) => reset.mutateAsync({ body: values }) });
  // A used or expired link says so at once; if the check itself fails, the form is shown and the save will tell.
  const check = useRouteQuery(api.check, { query: { token, email } }, { staleTime: Infinity });
  const link = check.isPending ? 'checking' : check.data?.valid === false ? 'invalid' : 'valid';
  return <ResetPasswordFormView email={email} form={form} saved={saved} link={link} />;
}
