import { useState } from 'react';
import type { SecondFactorSetup } from '@app/contracts/browser';
import { Button, Card, LoadError, Skeleton, navigate, queryState, useRouteMutation, useRouteQuery, type LoadState } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { secondFactorApi, type SecondFactorApi } from './api.ts';
import { useEnableForm, type EnableValues } from './use-enable-form.ts';

const digitsOnly = (value: string) => value.replace(/\D+/g, '').slice(0, 6);

/** The QR code of the app's link: the server's modules as one SVG path, with a quiet zone. */
export function QrCode({ qr }: { qr: SecondFactorSetup['qr'] }) {
  const side = qr.size + 8;
  return (
    <svg className="second-factor__qr" viewBox={`-4 -4 ${String(side)} ${String(side)}`} role="img" aria-label="QR-код для приложения-аутентификатора" shapeRendering="crispEdges">
      <rect x={-4} y={-4} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/** The secret in groups of four, as people type it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export interface EnrolmentViewProps {
  email: string;
  setup: LoadState<SecondFactorSetup>;
  onRetry?: () => void;
  form: ContractForm<EnableValues>;
}

/** The first screen: scan the QR code (or type the secret), then send the app's first code. */
export function EnrolmentView({ email, setup, onRetry = () => undefined, form }: EnrolmentViewProps) {
  return (
    <Card className="auth-card second-factor">
      <h1 className="card__title">Подключите вход с кодом из приложения</h1>
      <p className="card__subtitle">
        Админка аккаунта <strong className="reset-request__email">{email}</strong> открывается только с кодом из приложения-аутентификатора (Яндекс Ключ, Google Authenticator и подобные).
      </p>
      {setup.status === 'loading' && <Skeleton lines={6} />}
      {setup.status === 'error' && <LoadError message={setup.message} onRetry={onRetry} />}
      {setup.status === 'ready' && (
        <>
          <p className="second-factor__step">1. Отсканируйте QR-код в приложении:</p>
          <QrCode qr={setup.data.qr} />
          <p className="second-factor__secret">
            <span>или добавьте аккаунт вручную по ключу</span>
            <code aria-label="Ключ для ввода вручную">{grouped(setup.data.secret)}</code>
          </p>
          <p className="second-factor__step">2. Введите код, который покажет приложение:</p>
          <ContractFormView form={form}>
            <FormField form={form.form} name="code" label="Код из приложения" inputMode="numeric" autoComplete="one-time-code" normalize={digitsOnly} hint="6 цифр; код меняется каждые 30 секунд" required />
            <Button type="submit" block busy={form.busy}>
              Подключить
            </Button>
          </ContractFormView>
        </>
      )}
      <div className="auth-card__footer">
        <a href="/logout">Выйти</a>
      </div>
    </Card>
  );
}

/** The second screen: the ten recovery codes, shown this once. */
export function RecoveryCodesView({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    // Without a clipboard (a page served over plain http) the codes stay on screen to copy by hand.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(codes.join('\n')))
      .then(
        () => setCopied(true),
        () => undefined,
      );
  };
  return (
    <Card className="auth-card second-factor">
      <h1 className="card__title">Сохраните резервные коды</h1>
      <p className="card__subtitle">Вход с кодом подключён. Если телефона не будет под рукой, войдите с одним из этих кодов: каждый действует один раз. Больше они не покажутся — сохраните их в менеджере паролей или распечатайте.</p>
      <ul className="second-factor__codes" aria-label="Резервные коды">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="second-factor__actions">
        <Button variant="secondary" onClick={copy}>
          {copied ? 'Скопировано' : 'Скопировать коды'}
        </Button>
        <Button onClick={onDone}>Я сохранил коды, продолжить</Button>
      </div>
    </Card>
  );
}

/** Enrols the signed-in staff account's second factor, shows its recovery codes, then opens `next`. */
export function SecondFactorEnrolment({ email, next, api = secondFactorApi }: { email: string; next: string; api?: SecondFactorApi }) {
  // The same secret comes back until the enrolment is confirmed: no need to ask again while the page is open.
  const setup = useRouteQuery(api.setup, undefined, { staleTime: Infinity, refetchOnWindowFocus: false });
  const enable = useRouteMutation(api.enable);
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useEnableForm({
    onSubmit: async (values) => {
      setCodes((await enable.mutateAsync({ body: values })).recovery_codes);
    },
  });
  if (codes) return <RecoveryCodesView codes={codes} onDone={() => navigate(next)} />;
  return <EnrolmentView email={email} setup={queryState(setup)} onRetry={() => void setup.refetch()} form={form} />;
}
