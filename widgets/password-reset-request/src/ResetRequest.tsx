import { useEffect, useRef, useState } from 'react';
import { ACCOUNT_TEXTS, type WidgetProps } from '@app/contracts/browser';
import { EmailText, Button, Card, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { resetRequestApi, type ResetRequestApi } from './api.ts';
import { useResetRequestForm, type ResetRequestValues } from './use-reset-request-form.ts';

export interface ResetRequestViewProps {
  form: ContractForm<ResetRequestValues>;
  /** The request was accepted: «Успех». */
  sent: boolean;
  /** Back to the form to send the link again. */
  onRetry: () => void;
}


/** The form and its success message, with every state driven by props. */
export function ResetRequestView({ form, sent, onRetry }: ResetRequestViewProps) {
  const email = form.form.getValues('email');
  const sentTitle = useRef<HTMLHeadingElement>(null);
  // The form (and the focused button) goes away: keep the keyboard where the news is.
  useEffect(() => {
    if (sent) sentTitle.current?.focus();
  }, [sent]);
  return (
    <Card className="auth-card">
      <div aria-live="polite">
        {sent && (
          <div className="reset-request__sent">
            <h1 className="card__title" ref={sentTitle} tabIndex={-1}>
              {ACCOUNT_TEXTS.resetRequested}
            </h1>
            <p>
              Если аккаунт с адресом <strong className="reset-request__email"><EmailText email={email.trim()} /></strong> существует, мы отправили на него письмо со ссылкой для смены пароля.
            </p>
            <p className="card__subtitle">Ссылка одноразовая и действует ограниченное время. Если письма нет, проверьте папку «Спам».</p>
          </div>
        )}
      </div>
      {!sent && (
        <>
          <h1 className="card__title">Восстановление пароля</h1>
          <p className="card__subtitle">Укажите email, с которым вы регистрировались, и мы пришлём ссылку для смены пароля</p>
          <ContractFormView form={form}>
            <FormField form={form.form} name="email" label="Email" type="email" autoComplete="email" inputMode="email" autoFocus required />
            <Button type="submit" block busy={form.busy}>
              Отправить ссылку
            </Button>
          </ContractFormView>
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
export function ResetRequest({ email, api = resetRequestApi }: WidgetProps<'password-reset-request'> & { api?: ResetRequestApi }) {
  const [sent, setSent] = useState(false);
  const request = useRouteMutation(api.request, { onSuccess: () => setSent(true) });
  const form = useResetRequestForm({ email, onSubmit: (values) => request.mutateAsync({ body: values }) });
  return <ResetRequestView form={form} sent={sent} onRetry={() => setSent(false)} />;
}
