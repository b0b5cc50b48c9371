import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { ACCOUNT_TEXTS, ERROR_CODES, ResetPasswordBodySchema, type WidgetProps } from '@app/contracts';
import { Button, Card, ErrorList, Field, apiFormErrors, clearToken, issuesToFieldErrors, partitionFieldErrors, type FieldErrors, type FormErrors } from '@app/kit';
import { resetPasswordApi, type ResetPasswordApi } from './api.ts';

type Values = { password: string; password_confirmation: string };
const FIELDS = ['password', 'password_confirmation'] as const;

export interface ResetPasswordFormViewProps {
  /** The account the link was sent to; shown, not edited. */
  email: string;
  values: Values;
  fieldErrors: FieldErrors;
  formErrors: readonly string[];
  busy: boolean;
  /** The new password was saved: «Пароль сохранен». */
  saved: boolean;
  onChange: (field: keyof Values, value: string) => void;
  onSubmit: () => void;
}

/** The form and its success message, with every state driven by props. */
export function ResetPasswordFormView({ email, values, fieldErrors, formErrors, busy, saved, onChange, onSubmit }: ResetPasswordFormViewProps) {
  const savedTitle = useRef<HTMLHeadingElement>(null);
  // The form (and the focused button) goes away: keep the keyboard where the news is.
  useEffect(() => {
    if (saved) savedTitle.current?.focus();
  }, [saved]);
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
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
          <form className="form" onSubmit={submit} noValidate>
            {/* Lets password managers save the new password for the right account. */}
            <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
            <ErrorList messages={formErrors} />
            <Field
              label="Новый пароль"
              name="password"
              type="password"
              autoComplete="new-password"
              value={values.password}
              errors={fieldErrors.password}
              hint="Не короче 8 символов"
              onChange={(e) => onChange('password', e.target.value)}
              autoFocus
              required
            />
            <Field
              label="Повторите пароль"
              name="password_confirmation"
              type="password"
              autoComplete="new-password"
              value={values.password_confirmation}
              errors={fieldErrors.password_confirmation}
              onChange={(e) => onChange('password_confirmation', e.target.value)}
              required
            />
            <Button type="submit" block busy={busy}>
              Сохранить пароль
            </Button>
          </form>
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
  const [values, setValues] = useState<Values>({ password: '', password_confirmation: '' });
  const [errors, setErrors] = useState<FormErrors>({ fieldErrors: {}, formErrors: [] });
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const onChange = (field: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ fieldErrors: { [field]: _, ...rest }, formErrors }) => ({ fieldErrors: rest, formErrors }));
  };

  const onSubmit = async () => {
    const parsed = ResetPasswordBodySchema.safeParse({ ...values, token, email });
    if (!parsed.success) {
      const { fieldErrors, formErrors } = partitionFieldErrors(issuesToFieldErrors(parsed.error.issues), FIELDS);
      // A token or email that fails the check means a broken link, whatever the field's own message.
      setErrors({ fieldErrors, formErrors: formErrors.length ? [ERROR_CODES.RESET_TOKEN_INVALID.message] : [] });
      return;
    }
    setErrors({ fieldErrors: {}, formErrors: [] });
    setBusy(true);
    try {
      await api.resetPassword(parsed.data);
      // The server ended every session of the account, so a stored token is dead.
      clearToken();
      setSaved(true);
    } catch (err) {
      setErrors(apiFormErrors(err, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ResetPasswordFormView
      email={email}
      values={values}
      fieldErrors={errors.fieldErrors}
      formErrors={errors.formErrors}
      busy={busy}
      saved={saved}
      onChange={onChange}
      onSubmit={() => void onSubmit()}
    />
  );
}
