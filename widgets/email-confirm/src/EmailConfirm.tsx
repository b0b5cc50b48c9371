import { useCallback, useEffect, useId, useRef, useState, type MouseEvent, type SyntheticEvent } from 'react';
import { ACCOUNT_TEXTS, ConfirmEmailBodySchema, type WidgetProps } from '@app/contracts';
import { Alert, ApiError, Button, Card, ErrorList, Field, apiFormErrors, clearToken, issuesToFieldErrors, navigate, useInertBackground } from '@app/kit';
import { emailConfirmApi, type EmailConfirmApi } from './api.ts';
import { useCountdown } from './use-countdown.ts';

/** How long «Почта подтверждена» stays before the page reloads without the overlay. */
export const CONFIRMED_PAUSE_MS = 1500;
/** Used when the server does not say when the next code may be sent. */
const RESEND_FALLBACK_SECONDS = 60;

export interface EmailConfirmViewProps {
  email: string;
  supportUrl: string;
  code: string;
  codeErrors: readonly string[];
  formErrors: readonly string[];
  /** The code is being checked. */
  busy: boolean;
  /** The code was accepted: «Почта подтверждена». */
  confirmed: boolean;
  resendBusy: boolean;
  /** Seconds until a new code may be requested; 0 when it may be now. */
  resendIn: number;
  /** A new code was sent. */
  resendSent: boolean;
  resendErrors: readonly string[];
  loggingOut: boolean;
  onCodeChange: (code: string) => void;
  onSubmit: () => void;
  onResend: () => void;
  onLogout: () => void;
  onContinue: () => void;
}

/** Only digits, at most six: a pasted «123 456» or «123-456» still fits. */
export const normalizeCode = (value: string) => value.replace(/\D/g, '').slice(0, 6);

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** The full-screen overlay itself, with every state driven by props. */
export function EmailConfirmView(props: EmailConfirmViewProps) {
  const { email, supportUrl, code, codeErrors, formErrors, busy, confirmed, resendBusy, resendIn, resendSent, resendErrors, loggingOut } = props;
  const titleId = useId();
  const descriptionId = useId();
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!busy) props.onSubmit();
  };
  const logout = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    if (!loggingOut) props.onLogout();
  };

  return (
    <div className="overlay-screen" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={descriptionId}>
      <Card className="email-confirm">
        {confirmed ? (
          <div className="email-confirm__done" role="status">
            <h1 className="card__title" id={titleId}>
              {ACCOUNT_TEXTS.emailConfirmed}
            </h1>
            <p className="card__subtitle" id={descriptionId}>
              Спасибо! Сейчас всё будет готово к работе.
            </p>
            <Button block autoFocus onClick={props.onContinue}>
              Продолжить
            </Button>
          </div>
        ) : (
          <>
            <h1 className="card__title" id={titleId}>
              Подтвердите почту
            </h1>
            <p className="card__subtitle" id={descriptionId}>
              Мы отправили код на <strong className="email-confirm__email">{email}</strong>. Введите его, чтобы продолжить работу.
            </p>
            <form className="form" onSubmit={submit} noValidate>
              <ErrorList messages={formErrors} />
              <Field
                label="Код из письма"
                name="code"
                inputClassName="code-input"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder="••••••"
                value={code}
                errors={codeErrors}
                hint="6 цифр. Если письма нет, проверьте папку «Спам»"
                onChange={(e) => props.onCodeChange(e.target.value)}
                autoFocus
                required
              />
              <Button type="submit" block busy={busy}>
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
    </div>
  );
}

/**
 * The overlay unconfirmed users see on every page: checks the mailed code, resends it at most
 * once a minute, signs out. Once the code is accepted the page reloads without it.
 */
export function EmailConfirm({ email, supportUrl, api = emailConfirmApi }: WidgetProps<'email-confirm'> & { api?: EmailConfirmApi }) {
  const ref = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState('');
  const [codeErrors, setCodeErrors] = useState<string[]>([]);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [resendBusy, setResendBusy] = useState(false);
  const [resendSent, setResendSent] = useState(false);
  const [resendErrors, setResendErrors] = useState<string[]>([]);
  const [resendIn, startResendCountdown] = useCountdown();
  const [loggingOut, setLoggingOut] = useState(false);

  useInertBackground(ref, !hidden);

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

  const onCodeChange = (value: string) => {
    setCode(normalizeCode(value));
    setCodeErrors([]);
    setFormErrors([]);
  };

  const onSubmit = async () => {
    setFormErrors([]);
    const parsed = ConfirmEmailBodySchema.safeParse({ code });
    if (!parsed.success) {
      setCodeErrors(issuesToFieldErrors(parsed.error.issues).code ?? []);
      return;
    }
    setBusy(true);
    try {
      await api.confirm(parsed.data);
      setConfirmed(true);
    } catch (err) {
      // Confirmed meanwhile (another tab, the reset link): the overlay has done its job.
      if (err instanceof ApiError && err.code === 'EMAIL_ALREADY_CONFIRMED') {
        setConfirmed(true);
        return;
      }
      const { fieldErrors, formErrors: others } = apiFormErrors(err, ['code']);
      setCodeErrors(fieldErrors.code ?? []);
      setFormErrors(others);
      setBusy(false);
    }
  };

  const onResend = async () => {
    setResendErrors([]);
    setResendSent(false);
    setResendBusy(true);
    try {
      const { resend_in } = await api.resend();
      setResendSent(true);
      startResendCountdown(resend_in > 0 ? resend_in : RESEND_FALLBACK_SECONDS);
      setCode('');
      setCodeErrors([]);
      setFormErrors([]);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'EMAIL_ALREADY_CONFIRMED') setConfirmed(true);
      else setResendErrors(apiFormErrors(err, []).formErrors);
    } finally {
      setResendBusy(false);
    }
  };

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
    <div ref={ref} className="email-confirm-root">
      <EmailConfirmView
        email={email}
        supportUrl={supportUrl}
        code={code}
        codeErrors={codeErrors}
        formErrors={formErrors}
        busy={busy}
        confirmed={confirmed}
        resendBusy={resendBusy}
        resendIn={resendIn}
        resendSent={resendSent}
        resendErrors={resendErrors}
        loggingOut={loggingOut}
        onCodeChange={onCodeChange}
        onSubmit={() => void onSubmit()}
        onResend={() => void onResend()}
        onLogout={() => void onLogout()}
        onContinue={onContinue}
      />
    </div>
  );
}
