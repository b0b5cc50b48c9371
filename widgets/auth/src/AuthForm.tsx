import { useEffect, useState, type SyntheticEvent } from 'react';
import { LoginBodySchema, RegisterBodySchema, type WidgetProps } from '@app/contracts';
import { Button, Card, ErrorList, Field, apiFormErrors, clearToken, issuesToFieldErrors, navigate, setToken } from '@app/kit';
import { authApi, type AuthApi } from './api.ts';

type Mode = WidgetProps<'auth'>['mode'];
type Values = { email: string; password: string; password_confirmation: string };
type Errors = Record<string, string[]>;

export interface AuthFormViewProps {
  mode: Mode;
  values: Values;
  fieldErrors: Errors;
  formErrors: string[];
  busy: boolean;
  onChange: (field: keyof Values, value: string) => void;
  onSubmit: () => void;
}

const TEXT = {
  login: { title: 'Вход', subtitle: 'Войдите, чтобы продолжить работу с нейросетями', submit: 'Войти' },
  register: { title: 'Регистрация', subtitle: 'Создайте аккаунт — код подтверждения придёт на почту', submit: 'Зарегистрироваться' },
} as const;

/** The form itself, with every state driven by props. */
export function AuthFormView({ mode, values, fieldErrors, formErrors, busy, onChange, onSubmit }: AuthFormViewProps) {
  const text = TEXT[mode];
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Card className="auth-card">
      <h1 className="card__title">{text.title}</h1>
      <p className="card__subtitle">{text.subtitle}</p>
      <form className="form" onSubmit={submit} noValidate>
        <ErrorList messages={formErrors} />
        <Field label="Email" name="email" type="email" autoComplete="email" inputMode="email" value={values.email} errors={fieldErrors.email} onChange={(e) => onChange('email', e.target.value)} required />
        <Field
          label="Пароль"
          name="password"
          type="password"
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          value={values.password}
          errors={fieldErrors.password}
          hint={mode === 'register' ? 'Не короче 8 символов' : undefined}
          onChange={(e) => onChange('password', e.target.value)}
          required
        />
        {mode === 'register' && (
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
        )}
        <Button type="submit" block busy={busy}>
          {text.submit}
        </Button>
      </form>
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

/** Sign-in or registration: validates with the contract's schema, stores the bearer token, goes on. */
export function AuthForm({ mode, redirectTo, api = authApi }: WidgetProps<'auth'> & { api?: AuthApi }) {
  const [values, setValues] = useState<Values>({ email: '', password: '', password_confirmation: '' });
  const [fieldErrors, setFieldErrors] = useState<Errors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  // Whoever reaches a sign-in form is signed out: a stale token must not outlive its session.
  useEffect(() => clearToken(), []);

  const onChange = (field: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setFieldErrors(({ [field]: _, ...rest }) => rest);
  };

  const onSubmit = async () => {
    setFormErrors([]);
    const parsed = mode === 'login' ? LoginBodySchema.safeParse(values) : RegisterBodySchema.safeParse(values);
    if (!parsed.success) {
      setFieldErrors(issuesToFieldErrors(parsed.error.issues));
      return;
    }
    setBusy(true);
    try {
      const result = mode === 'login' ? await api.login(parsed.data) : await api.register(parsed.data as Values);
      setToken(result.token);
      navigate(redirectTo);
    } catch (err) {
      const shown = apiFormErrors(err, Object.keys(values));
      setFieldErrors(shown.fieldErrors);
      setFormErrors(shown.formErrors);
      setBusy(false);
    }
  };

  return <AuthFormView mode={mode} values={values} fieldErrors={fieldErrors} formErrors={formErrors} busy={busy} onChange={onChange} onSubmit={() => void onSubmit()} />;
}
