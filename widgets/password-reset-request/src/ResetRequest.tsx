import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { ACCOUNT_TEXTS, ResetRequestBodySchema, type WidgetProps } from '@app/contracts';
import { Button, Card, ErrorList, Field, apiFormErrors, issuesToFieldErrors, partitionFieldErrors, type FieldErrors } from '@app/kit';
import { resetRequestApi, type ResetRequestApi } from './api.ts';

const FIELDS = ['email'] as const;

export interface ResetRequestViewProps {
  email: string;
  fieldErrors: FieldErrors;
  formErrors: readonly string[];
  busy: boolean;
  /** The request was accepted: «Успех». */
  sent: boolean;
  onChange: (email: string) => void;
  onSubmit: () => void;
  /** Back to the form to send the link again. */
  onRetry: () => void;
}

/** The form and its success message, with every state driven by props. */
export function ResetRequestView({ email, fieldErrors, formErrors, busy, sent, onChange, onSubmit, onRetry }: ResetRequestViewProps) {
  const sentTitle = useRef<HTMLHeadingElement>(null);
  // The form (and the focused button) goes away: keep the keyboard where the news is.
  useEffect(() => {
    if (sent) sentTitle.current?.focus();
  }, [sent]);
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Card className="auth-card">
      <div aria-live="polite">
        {sent && (
          <div className="reset-request__sent">
            <h1 className="card__title" ref={sentTitle} tabIndex={-1}>
              {ACCOUNT_TEXTS.resetRequested}
            </h1>
            <p>
              Если аккаунт с адресом <strong className="reset-request__email">{email.trim()}</strong> существует, мы отправили на него письмо со ссылкой для смены пароля.
            </p>
            <p className="card__subtitle">Ссылка одноразовая и действует ограниченное время. Если письма нет, проверьте папку «Спам».</p>
          </div>
        )}
      </div>
      {!sent && (
        <>
          <h1 className="card__title">Восстановление пароля</h1>
          <p className="card__subtitle">Укажите email, с которым вы регистрировались, и мы пришлём ссылку для смены пароля</p>
          <form className="form" onSubmit={submit} noValidate>
            <ErrorList messages={formErrors} />
            <Field label="Email" name="email" type="email" autoComplete="email" inputMode="email" value={email} errors={fieldErrors.email} onChange={(e) => onChange(e.target.value)} autoFocus required />
            <Button type="submit" block busy={busy}>
              Отправить ссылку
            </Button>
          </form>
        </>
      )}
      <div className="auth-card__footer">
        {sent ? (
          <>
            <a href="/login">Вернуться ко входу</a>
            <span>
              Письмо не пришло?{' '}
              <Button variant="link" onClick={onRetry}>
                Отправить ещё раз
              </Button>
            </span>
          </>
        ) : (
          <span>
            Вспомнили пароль? <a href="/login">Войти</a>
          </span>
        )}
      </div>
    </Card>
  );
}

/** Asks the server to mail a reset link; the answer is the same whether or not the account exists. */
export function ResetRequest({ email: initialEmail, api = resetRequestApi }: WidgetProps<'password-reset-request'> & { api?: ResetRequestApi }) {
  const [email, setEmail] = useState(initialEmail);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const onChange = (value: string) => {
    setEmail(value);
    setFieldErrors({});
  };

  const onSubmit = async () => {
    setFormErrors([]);
    const parsed = ResetRequestBodySchema.safeParse({ email });
    if (!parsed.success) {
      const split = partitionFieldErrors(issuesToFieldErrors(parsed.error.issues), FIELDS);
      setFieldErrors(split.fieldErrors);
      setFormErrors(split.formErrors);
      return;
    }
    setBusy(true);
    try {
      await api.request(parsed.data);
      setSent(true);
    } catch (err) {
      const split = apiFormErrors(err, FIELDS);
      setFieldErrors(split.fieldErrors);
      setFormErrors(split.formErrors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ResetRequestView email={email} fieldErrors={fieldErrors} formErrors={formErrors} busy={busy} sent={sent} onChange={onChange} onSubmit={() => void onSubmit()} onRetry={() => setSent(false)} />
  );
}
