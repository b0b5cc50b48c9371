import { useId, useState, type SyntheticEvent } from 'react';
import { ANALYTICS_MAX_DAYS, periodProblem, type ExportQuery } from '@app/contracts/admin';
import { Alert, Button, failureMessage } from '@app/kit';
import type { AdminApi } from '../api.ts';
import { addDays, analyticsToday } from '../activity/days.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type ExportKind = 'payments' | 'ledger';

const KINDS: Record<ExportKind, { label: string; file: string }> = {
  payments: { label: 'Платежи и возвраты', file: 'payments' },
  ledger: { label: 'Движение токенов', file: 'ledger' },
};

/** Saves a file the page was given (a CSV export) under `name`. */
function save(file: unknown, name: string): void {
  if (!(file instanceof Blob) || typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the file once the click is handled; the address is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Buttons that download CSV exports of a period: the server's file saved as `payments_<from>_<to>.csv`, a refusal shown here. */
export function CsvButtons({ api, period, kinds, check }: { api: AdminApi; period: ExportQuery | null; kinds: readonly ExportKind[]; check?: () => ExportQuery | null }) {
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async (kind: ExportKind) => {
    const query = check ? check() : period;
    setFailure(null);
    if (!query) return;
    setBusy(kind);
    try {
      const file = await (kind === 'ledger' ? api.exportLedger : api.exportPayments)({ query });
      save(file, `${KINDS[kind].file}_${query.from}_${query.to}.csv`);
    } catch (err) {
      setFailure(failureMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div className="admin-export__buttons">
        {kinds.map((kind) => (
          <Button key={kind} type="button" variant="secondary" busy={busy === kind} disabled={busy !== null && busy !== kind} onClick={() => void download(kind)}>
            {KINDS[kind].label}, CSV
          </Button>
        ))}
      </div>
      {failure && <Alert>{failure}</Alert>}
    </>
  );
}

/**
 * «Выгрузка в CSV» of a tab (Платежи): a period of Moscow days (by default the last 30 up to
 * today), checked with the API's rules, and the tab's exports of it.
 */
export function CsvExport({ api, kinds, today = analyticsToday() }: { api: AdminApi; kinds: readonly ExportKind[]; today?: string }) {
  const id = useId();
  const [draft, setDraft] = useState<ExportQuery>({ from: addDays(today, -29), to: today });
  const [errors, setErrors] = useState<Partial<Record<keyof ExportQuery, string>>>({});
  const check = (): ExportQuery | null => {
    const missing = Object.fromEntries((['from', 'to'] as const).filter((k) => !DATE.test(draft[k])).map((k) => [k, 'Укажите дату']));
    const problem = Object.keys(missing).length ? null : periodProblem(draft.from, draft.to);
    const found = problem ? { [problem.field]: problem.message } : missing;
    setErrors(found);
    return Object.keys(found).length ? null : draft;
  };
  const field = (name: keyof ExportQuery, label: string) => {
    const error = errors[name];
    return (
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor={`${id}-${name}`}>
          {label}
        </label>
        <input
          id={`${id}-${name}`}
          className="field__input"
          type="date"
          min="2000-01-01"
          max={today}
          value={draft[name]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${name}-error` : `${id}-hint`}
          onChange={(e) => {
            setDraft((d) => ({ ...d, [name]: e.target.value }));
            setErrors({});
          }}
        />
        {error && (
          <p className="field__errors" id={`${id}-${name}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };
  const submit = (event: SyntheticEvent) => event.preventDefault();
  return (
    <form className="card admin-export" aria-label="Выгрузка в CSV" noValidate onSubmit={submit}>
      <div className="admin-export__head">
        <h2 className="admin-export__title">Выгрузка в CSV</h2>
        <p className="admin-muted" id={`${id}-hint`}>
          Дни по московскому времени, не больше {ANALYTICS_MAX_DAYS} дней. Файл открывается в Excel.
        </p>
      </div>
      <div className="admin-export__row">
        {field('from', 'С')}
        {field('to', 'По')}
        <CsvButtons api={api} period={null} kinds={kinds} check={check} />
      </div>
    </form>
  );
}
