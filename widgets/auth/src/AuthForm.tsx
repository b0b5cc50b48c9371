import { useEffect } from 'react';
import type { WidgetProps } from '@app/contracts/browser';
import { Button, Card, clearToken, navigate, setToken, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { authApi, type AuthApi } from './api.ts';
import { useAuthForm, type AuthValues } from './use-auth-form.ts';

type Mode = WidgetProps<'auth'>['mode'];

export interface AuthFormViewProps {
  mode: Mode;
  form: ContractForm<AuthValues>;
}

const TEXT = {
  login: { title: 'Вход', subtitle: 'Войдите, чтобы продолжить работу с нейросетями', submit: 'Войти' },
  register: { title: 'Регистрация', subtitle: 'Создайте аккаунт — код подтверждения придёт на почту', submit: 'Зарегистрироваться' },
} as const;

/** The form itself, with every state driven by props. */
export function AuthFormView({ mode, form }: AuthFormViewProps) {
  const text = TEXT[mode];
  return (
    <Card className="auth-card">
      <h1 className="card__title">{text.title}</h1>
      <p className="card__subtitle">{text.subtitle}</p>
      <ContractFormView form={form}>
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


/** Sign-in or registration: validates with the contract's schema, stores the bearer token, goes on. */
export function AuthForm({ mode, redirectTo, api = authApi }: WidgetProps<'auth'> & { api?: AuthApi }) {
  // Whoever reaches a sign-in form is signed out: a stale token must not outlive its session.
  useEffect(() => clearToken(), []);
  const login = useRouteMutation(api.login);
  const register = useRouteMutation(api.register);
  const form = useAuthForm(mode, {
    onSubmit: async (values) => {
      const result = mode === 'login' ? await login.mutateAsync({ body: { email: values.email, password: values.password } }) : await register.mutateAsync({ body: values });
      setToken(result.token);
      navigate(redirectTo);
    },
  });
  return <AuthFormView mode={mode} form={form} />;
}
