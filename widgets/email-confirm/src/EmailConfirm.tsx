import { useCallback, useEffect, useId, useState, type MouseEvent } from 'react';
import { ACCOUNT_TEXTS, type WidgetProps } from '@app/contracts/browser';
import { EmailText, Alert, ApiError, Button, Card, ErrorList, Field, clearToken, errorMessages, navigate, useRouteMutation, useRouteQuery } from '@app/kit';
import { DialogTitle, ScreenDialog } from '@app/kit/dialog';
import { emailConfirmApi, type EmailConfirmApi } from './api.ts';
import { useCodeForm, type CodeForm } from './use-code-form.ts';
import { useCountdown } from './use-countdown.ts';

/** How long «Почта подтверждена» stays before the page reloads without the overlay. */
export const CONFIRMED_PAUSE_MS = 1500;
/** Used when the server does not say when the next code may be sent. */
const RESEND_FALLBACK_SECONDS = 60;

export interface EmailConfirmViewProps {
  email: string;
  supportUrl: string;
  form: CodeForm;
  /** The code was accepted: «Почта подтверждена». */
  confirmed: boolean;
  resendBusy: boolean;
  /** Seconds until a new code may be requested; 0 when it may be now. */
  resendIn: number;
  /** A new code was sent. */
  resendSent: boolean;
  resendErrors: readonly string[];
  loggingOut: boolean;
  onResend: () => void;
  onLogout: () => void;
  onContinue: () => void;
}


const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** The full-screen overlay itself, with every state driven by props. */
export function EmailConfirmView(props: EmailConfirmViewProps) {
  const { email, supportUrl, form, confirmed, resendBusy, resendIn, resendSent, resendErrors, loggingOut } = props;
  const descriptionId = useId();
  const logout = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    if (!loggingOut) props.onLogout();
  };

  return (
    <ScreenDialog describedBy={descriptionId}>
      <Card className="email-confirm">
        {confirmed ? (
          <div className="email-confirm__done" role="status">
            <DialogTitle className="card__title">{ACCOUNT_TEXTS.emailConfirmed}</DialogTitle>
            <p className="card__subtitle" id={descriptionId}>
              Спасибо! Сейчас всё будет готово к работе.
            </p>
            <Button block autoFocus onClick={props.onContinue}>
              Продолжить
            </Button>
          </div>
        ) : (
          <>
            <DialogTitle className="card__title">Подтвердите почту</DialogTitle>
            <p className="card__subtitle" id={descriptionId}>
              Мы отправили код на <strong className="email-confirm__email"><EmailText email={email} /></strong>. Введите его, чтобы продолжить работу.
            </p>
            <form className="form" onSubmit={form.onSubmit} noValidate>
              <ErrorList messages={form.formErrors} />
              <Field
                name="code"
                label="Код из письма"
                inputClassName="code-input"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder="••••••"
                value={form.code}
                onChange={(e) => form.setCode(e.target.value)}
                errors={form.codeErrors}
                hint="6 цифр. Если письма нет, проверьте папку «Спам»"
                autoFocus
                required
              />
              <Button type="submit" block busy={form.busy}>
                Подтвердить
              </Button>
            </form>
            <div className="email-confirm__resend">
              <Button variant="link" busy={resendBusy} disabled={resendBusy || resendIn > 0} onClick={props.onResend}>
                {resendIn > 0 ? `Отправить код ещё раз через ${resendIn} с` : 'Отправить код ещё раз'}
              </Button>
              <div aria-live="polite">
                {resendSent && !resendErrors.length && <Alert tone="success">Новый код отправлен на {email}</Alert>}
                <ErrorList messages={resendErrors} />
              </div>
            </div>
            <div className="auth-card__footer">
              <span>
                Не приходит код?{' '}
                <a href={supportUrl} {...(isWebUrl(supportUrl) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                  Написать в поддержку
                </a>
              </span>
              <span>
                Другой аккаунт?{' '}
                <a href="/logout" onClick={logout} aria-disabled={loggingOut || undefined}>
                  Выйти
                </a>
              </span>
            </div>
          </>
        )}
      </Card>
    </ScreenDialog>
  );
}

/**
 * The overlay unconfirmed users see on every page: checks the mailed code, resends it at most
 * once a minute, signs out. Once the code is accepted the page reloads without it.
 */
export function EmailConfirm({ email, supportUrl, api = emailConfirmApi }: WidgetProps<'email-confirm'> & { api?: EmailConfirmApi }) {
  const [confirmed, setConfirmed] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [resendIn, startResendCountdown] = useCountdown();
  // Right after registration the code has just been sent: the wait runs from the start.
  const serverWait = useRouteQuery(api.user).data?.resend_in ?? 0;
  useEffect(() => {
    if (serverWait > 0) startResendCountdown(serverWait);
  }, [serverWait, startResendCountdown]);
  const [loggingOut, setLoggingOut] = useState(false);
  // Confirmed meanwhile (another tab, the reset link): the overlay has done its job.
  const alreadyConfirmed = (err: unknown) => err instanceof ApiError && err.code === 'EMAIL_ALREADY_CONFIRMED';

  const confirm = useRouteMutation(api.confirm, { onSuccess: () => setConfirmed(true) });
  const form = useCodeForm({
    onSubmit: async (values) => {
      try {
        await confirm.mutateAsync({ body: values });
      } catch (err) {
        if (alreadyConfirmed(err)) setConfirmed(true);
        else throw err;
      }
    },
  });
  const resend = useRouteMutation(api.resend, {
    onSuccess: ({ resend_in }) => {
      startResendCountdown(resend_in > 0 ? resend_in : RESEND_FALLBACK_SECONDS);
      form.reset();
    },
    onError: (err) => {
      if (alreadyConfirmed(err)) setConfirmed(true);
    },
  });

  const onContinue = useCallback(() => {
    setHidden(true);
    // Reload so the page's other widgets read the account as confirmed; the server no longer mounts the overlay.
    navigate(window.location.pathname + window.location.search);
  }, []);

  useEffect(() => {
    if (!confirmed) return;
    const id = window.setTimeout(onContinue, CONFIRMED_PAUSE_MS);
    return () => window.clearTimeout(id);
  }, [confirmed, onContinue]);

  const onLogout = async () => {
    setLoggingOut(true);
    let signedOut = true;
    try {
      await api.logout();
    } catch {
      signedOut = false;
    }
    clearToken();
    // If the call failed, the plain /logout page still ends the session cookie and goes to /login.
    navigate(signedOut ? '/login' : '/logout');
  };

  if (hidden) return null;
  return (
    <EmailConfirmView
      email={email}
      supportUrl={supportUrl}
      form={form}
      confirmed={confirmed}
      resendBusy={resend.isPending}
      resendIn={resendIn}
      resendSent={resend.isSuccess}
      resendErrors={resend.isError && !alreadyConfirmed(resend.error) ? errorMessages(resend.error.text) : []}
      loggingOut={loggingOut}
      onResend={() => resend.mutate({})}
      onLogout={() => void onLogout()}
      onContinue={onContinue}
    />
  );
}
