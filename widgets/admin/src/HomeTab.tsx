import type { JobFailure } from '@app/contracts/admin';
import { EmptyState, LoadError, Skeleton, failureMessage, useRouteQuery } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import type { AdminApi } from './api.ts';
import { ADMIN_TABS } from './routes.ts';
import { when } from './texts.ts';

/** «Главная»: the way into every section, and background jobs that failed for good and still wait for someone. */
export function HomeTab({ api, navigate }: { api: AdminApi; navigate: (href: string) => void }) {
  const failures = useRouteQuery(api.jobFailures, { query: { page: 1, unresolved: '1' } });
  return (
    <div className="admin-home">
      <section className="card" aria-label="Разделы">
        <h3>Разделы</h3>
        <ul className="admin-home__links">
          {ADMIN_TABS.slice(1).map((t) => (
            <li key={t.flag}>
              <a href={t.path} onClick={routedClick(navigate, t.path)}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-label="Сбои фоновых задач">
        <h3>Сбои фоновых задач</h3>
        {failures.isPending && <Skeleton lines={3} />}
        {failures.isError && <LoadError message={failureMessage(failures.error)} onRetry={() => void failures.refetch()} />}
        {failures.data && failures.data.data.length === 0 && <EmptyState title="Сбоев нет: все задачи выполнены" />}
        {failures.data && failures.data.data.length > 0 && (
          <ul className="admin-failures">
            {failures.data.data.map((f: JobFailure) => (
              <li key={f.id}>
                <strong>{f.queue}</strong> · {when(f.failed_at)} · попыток: {f.attempts}
                <pre>{f.error}</pre>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
