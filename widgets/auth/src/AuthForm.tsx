import { useEffect, useState } from 'react';
import { CLIENT_ERRORS, type WidgetProps } from '@app/contracts/browser';
import { Alert, ApiError, Button, Card, clearToken, navigate, setToken, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, fieldMessages, type ContractForm } from '@app/kit/forms';
import { LEGAL_PAGES, PRIVACY_TEXTS } from '@app/contracts/privacy';
import { authApi, type AuthApi } from './api.ts';
import { useAuthForm, type AuthValues } from './use-auth-form.ts';
import { SignInCode } from './SignInCodeForm.tsx';

type Mode = WidgetProps<'auth'>['mode'];

export interface AuthFormViewProps {
  mode: Mode;
  form: ContractForm<AuthValues>;
  /** The account asked for the sign-in check and the browser is solving it. */
  checking?: boolean;
}

const CHECK_FAILED = 'Не удалось пройти проверку. Попробуйте войти ещё раз';

const TEXT = {
  login: { title: 'Вход', subtitle: 'Войдите, чтобы продолжить работу с нейросетями', submit: 'Войти' },
  register: { title: 'Регистрация', subtitle: 'Создайте аккаунт — код подтверждения придёт на почту', submit: 'Зарегистрироваться' },
} as const;

/** The form itself, with every state driven by props. */
export function AuthFormView({ mode, form, checking = false }: AuthFormViewProps) {
  const text = TEXT[mode];
  return (
    <Card className="auth-card">
      <h1 className="card__title">{text.title}</h1>
      <p className="card__subtitle">{text.subtitle}</p>
      <ContractFormView form={form}>
        {checking && <Alert tone="warning">{CLIENT_ERRORS.SIGN_IN_CHECK_REQUIRED}</Alert>}
        <FormField form={form.form} name="email" label="Email" type="email" autoComplete="email" inputMode="email" required />
        <FormField
          form={form.form}
          name="password"
          label="Пароль"
          type="password"
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          hint={mode === 'register' ? 'Не короче 8 символов' : undefined}
          required
        />
        {mode === 'register' && <FormField form={form.form} name="password_confirmation" label="Повторите пароль" type="password" autoComplete="new-password" required />}
        {mode === 'register' && <ConsentField form={form} />}
        <Button type="submit" block busy={form.busy}>
          {text.submit}
        </Button>
      </ContractFormView>
      <div className="auth-card__footer">
        {mode === 'login' ? (
          <>
            <a href="/password/reset">Забыли пароль?</a>
            <span>
              Нет аккаунта? <a href="/register">Зарегистрироваться</a>
            </span>
          </>
        ) : (
          <span>
            Уже есть аккаунт? <a href="/login">Войти</a>
          </span>
        )}
      </div>
    </Card>
  );
}

/** The consent to the processing of personal data (152-ФЗ): a box the registration cannot go without, linking the policy. */
function ConsentField({ form }: { form: ContractForm<AuthValues> }) {
  const errors = fieldMessages(form.form, 'consent');
  const registered = form.form.register('consent', { onChange: () => form.form.clearErrors('consent') });
  return (
    <div className={`field field--checkbox${errors.length ? ' field--invalid' : ''}`}>
      <label className="consent">
        <input type="checkbox" {...registered} aria-invalid={errors.length > 0 || undefined} aria-describedby={errors.length ? 'consent-errors' : undefined} />
        <span>
          {PRIVACY_TEXTS.consent}{' '}
          <a href={LEGAL_PAGES.privacy.path} target="_blank" rel="noopener">
            {PRIVACY_TEXTS.consentLink}
          </a>
        </span>
      </label>
      {errors.length > 0 && (
        <ul className="field__errors" id="consent-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The referral link's code the visitor came by (`/register?ref=`), sent with the registration. */
function referral(): { ref?: string } {
  const ref = new URLSearchParams(window.location.search).get('ref');
  return ref && ref.length <= 64 ? { ref } : {};
}

/** Signs in; an account many sign-ins failed for asks for the check first: solved here, then sent with the sign-in. */
function useSignIn(api: AuthApi) {
  const login = useRouteMutation(api.login);
  const [checking, setChecking] = useState(false);
  const signIn = async (email: string, password: string, code?: string) => {
    const second = code === undefined ? {} : { code };
    try {
      return await login.mutateAsync({ body: { email, password, ...second } });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'SIGN_IN_CHECK_REQUIRED') throw err;
    }
    setChecking(true);
    try {
      const [{ challenge }, { solveSignInCheck }] = await Promise.all([api.signInCheck({ body: { email } }), import('./sign-in-check.ts')]);
      const check = await solveSignInCheck(challenge);
      if (!check) throw new ApiError(0, 'SIGN_IN_CHECK_FAILED', CHECK_FAILED);
      return await login.mutateAsync({ body: { email, password, check, ...second } }).catch((err: unknown) => {
        throw err instanceof ApiError && err.code === 'SIGN_IN_CHECK_REQUIRED' ? new ApiError(err.status, err.code, CHECK_FAILED) : err;
      });
    } finally {
      setChecking(false);
    }
  };
  return { signIn, checking };
}

type SignIn = ReturnType<typeof useSignIn>;

/** The first step: email and password (or registration); an account with a second factor goes on to its code. */
function PasswordStep({ mode, api, signIn, onSignedIn, onSecondFactor, email }: { mode: Mode; api: AuthApi; signIn: SignIn; onSignedIn: (token: string) => void; onSecondFactor: (email: string, password: string) => void; email: string }) {
  const register = useRouteMutation(api.register);
  const form = useAuthForm(mode, {
    values: { email },
    onSubmit: async (values) => {
      if (mode === 'register') return onSignedIn((await register.mutateAsync({ body: { email: values.email, password: values.password, password_confirmation: values.password_confirmation, consent: true, ...referral() } })).token);
      try {
        onSignedIn((await signIn.signIn(values.email, values.password)).token);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'SECOND_FACTOR_REQUIRED') throw err;
        onSecondFactor(values.email, values.password);
      }
    },
  });
  return <AuthFormView mode={mode} form={form} checking={signIn.checking} />;
}

/** Sign-in or registration: validates with the contract's schema, stores the bearer token, goes on; staff with a second factor type its code after the password. */
export function AuthForm({ mode, redirectTo, api = authApi }: WidgetProps<'auth'> & { api?: AuthApi }) {
  // Whoever reaches a sign-in form is signed out: a stale token must not outlive its session.
  useEffect(() => clearToken(), []);
  const signIn = useSignIn(api);
  const [codeFor, setCodeFor] = useState<{ email: string; password: string } | null>(null);
  const [lastEmail, setLastEmail] = useState('');
  const signedIn = (token: string) => {
    setToken(token);
    navigate(redirectTo);
  };
  if (codeFor) {
    const back = () => {
      setLastEmail(codeFor.email);
      setCodeFor(null);
    };
    return <SignInCode email={codeFor.email} onSubmit={async (code) => signedIn((await signIn.signIn(codeFor.email, codeFor.password, code)).token)} onBack={back} />;
  }
  return <PasswordStep mode={mode} api={api} signIn={signIn} email={lastEmail} onSignedIn={signedIn} onSecondFactor={(email, password) => setCodeFor({ email, password })} />;
}
