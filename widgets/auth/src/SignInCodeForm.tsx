import { useState } from 'react';
import { SignInCodeBodySchema } from '@app/contracts/browser';
import { Button, Card } from '@app/kit';
import { ContractFormView, FormField, useContractForm, type ContractForm } from '@app/kit/forms';

export type CodeValues = { code: string };

/** The code form: the contract's schema, with what a story or the container passes. */
export function useSignInCodeForm(options: { onSubmit: (values: CodeValues) => Promise<unknown>; values?: Partial<CodeValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<CodeValues> {
  return useContractForm(SignInCodeBodySchema, {
    defaultValues: { code: '', ...options.values },
    fields: ['code'],
    keepBusyAfterSuccess: true,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
}

export interface SignInCodeViewProps {
  email: string;
  form: ContractForm<CodeValues>;
  /** A recovery code is typed instead of the app's. */
  recovery: boolean;
  onRecoveryChange: (recovery: boolean) => void;
  onBack: () => void;
}

/** The sign-in's second step for an account with a second factor: the app's code, or a recovery code. */
export function SignInCodeView({ email, form, recovery, onRecoveryChange, onBack }: SignInCodeViewProps) {
  return (
    <Card className="auth-card">
      <h1 className="card__title">{recovery ? 'Резервный код' : 'Код из приложения'}</h1>
      <p className="card__subtitle">
        {recovery ? 'Введите один из резервных кодов, сохранённых при подключении, для ' : 'Введите 6 цифр из приложения-аутентификатора для '}
        <strong className="reset-request__email">{email}</strong>
      </p>
      <ContractFormView form={form}>
        <FormField
          key={recovery ? 'recovery' : 'app'}
          form={form.form}
          name="code"
          label={recovery ? 'Резервный код' : 'Код'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          autoCapitalize="none"
          spellCheck={false}
          hint={recovery ? 'Например, abcde-fghjk; каждый код действует один раз' : undefined}
          autoFocus
          required
        />
        <Button type="submit" block busy={form.busy}>
          Войти
        </Button>
      </ContractFormView>
      <div className="auth-card__footer">
        <Button variant="link" onClick={() => onRecoveryChange(!recovery)}>
          {recovery ? 'Ввести код из приложения' : 'Нет телефона? Войти с резервным кодом'}
        </Button>
        <Button variant="link" onClick={onBack}>
          Назад ко входу
        </Button>
      </div>
    </Card>
  );
}

/** The second step's state: which kind of code is typed; the container sends it with the password. */
export function SignInCode({ email, onSubmit, onBack }: { email: string; onSubmit: (code: string) => Promise<void>; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const form = useSignInCodeForm({ onSubmit: (values) => onSubmit(values.code) });
  const switchKind = (next: boolean) => {
    form.form.reset({ code: '' });
    setRecovery(next);
  };
  return <SignInCodeView email={email} form={form} recovery={recovery} onRecoveryChange={switchKind} onBack={onBack} />;
}
