import type { ReactNode } from 'react';
import { EmailText, LoadError, Skeleton, failureMessage } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import { when } from '../texts.ts';
import { billingStatus, statusTone } from './texts.ts';
import { ScrollArea } from '../ScrollArea.tsx';

/** A status as a coloured badge. */
export function StatusBadge({ status, label = billingStatus(status) }: { status: string; label?: string }) {
  return <span className={`admin-badge admin-badge--${statusTone(status)}`}>{label}</span>;
}

/** A link the panel routes itself. */
export function RoutedLink({ href, navigate, className, children }: { href: string; navigate: (href: string) => void; className?: string; children: ReactNode }) {
  return (
    <a href={href} className={className} onClick={routedClick(navigate, href)}>
      {children}
    </a>
  );
}

/** A user's email leading to their screen. */
export const UserLink = ({ id, email, navigate }: { id: number; email: string; navigate: (href: string) => void }) => (
  <RoutedLink href={`/admin/users/${String(id)}`} navigate={navigate}>
    <EmailText email={email} />
  </RoutedLink>
);

/** A moment in a table cell: the date, and the time under it (a narrow column). */
export function At({ iso }: { iso: string | null }) {
  if (!iso) return '—';
  const [date = '', time = ''] = when(iso).split(', ');
  return (
    <time className="admin-at" dateTime={iso}>
      {date}
      {time && (
        <span className="admin-at__time">
          <span className="visually-hidden">, </span>
          {time}
        </span>
      )}
    </time>
  );
}

/** A record's facts: label and value pairs (those with no value, `null`, left out). */
export function Facts({ items }: { items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="admin-facts">
      {items.filter(([, value]) => value !== null).map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A small table of a record's lines (refunds, ledger lines, log), or `empty`. */
export function Lines<T>({ title, head, rows, rowKey, empty, children }: { title: string; head: readonly string[]; rows: readonly T[]; rowKey: (row: T) => string | number; empty: string; children: (row: T) => ReactNode[] }) {
  return (
    <section className="admin-lines" aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <p className="admin-muted">{empty}</p>
      ) : (
        <ScrollArea label={title}>
          <table className="admin-table admin-table--compact">
            <thead>
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {children(row).map((cell, i) => (
                    <td key={head[i] ?? i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </section>
  );
}

/** What a record's screen or window shows while it loads or when it cannot. */
export function Loading({ query, children }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }; children: () => ReactNode }) {
  if (query.isPending) return <Skeleton lines={6} />;
  if (query.isError) return <LoadError message={failureMessage(query.error)} onRetry={() => void query.refetch()} />;
  return <>{children()}</>;
}

/** A list's filter: a native select with «all» first. */
export function Filter({ label, value, options, onChange }: { label: string; value: string | null; options: readonly { value: string; label: string }[]; onChange: (value: string | null) => void }) {
  return (
    <label className="admin-filter">
      <span>{label}</span>
      <select className="field__input" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">Все</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
