import { useState } from 'react';
import { LEGAL_KINDS, LEGAL_PAGES, type LegalKind } from '@app/contracts/privacy';
import { Alert, Button, LoadError, Skeleton, failureMessage, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import type { AdminApi } from '../api.ts';
import { when } from '../texts.ts';

/** The personal-data policy and the offer: the text in force, edited and published as a new version (its page shows it at once). */
export function LegalDocuments({ api }: { api: AdminApi }) {
  const [kind, setKind] = useState<LegalKind>('privacy');
  return (
    <section className="card admin-legal" aria-label="Документы">
      <h3>Документы</h3>
      <div className="admin-legal__switch" role="group" aria-label="Документ">
        {LEGAL_KINDS.map((k) => (
          <Button key={k} variant={k === kind ? 'primary' : 'secondary'} aria-pressed={k === kind} onClick={() => setKind(k)}>
            {LEGAL_PAGES[k].title}
          </Button>
        ))}
      </div>
      <LegalEditor key={kind} api={api} kind={kind} />
    </section>
  );
}

function LegalEditor({ api, kind }: { api: AdminApi; kind: LegalKind }) {
  const client = useKitQueryClient();
  const doc = useRouteQuery(api.legal, { params: { kind } });
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  if (doc.isPending) return <Skeleton lines={6} />;
  if (doc.isError) return <LoadError message={failureMessage(doc.error)} onRetry={() => void doc.refetch()} />;
  const current = doc.data.current;
  const value = text ?? current.body;
  const publish = async () => {
    setBusy(true);
    try {
      const next = await api.publishLegal({ params: { kind }, body: { body: value } });
      client.setQueryData(routeKey(api.legal.route, { params: { kind } }), next);
      setText(null);
      setMessage({ tone: 'success', text: `Опубликована редакция ${String(next.current.version)}: страница уже показывает её` });
    } catch (err) {
      setMessage({ tone: 'error', text: failureMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const id = `legal-${kind}`;
  return (
    <div className="admin-legal__editor">
      <p className="admin-muted">
        Действует редакция {current.version} от {when(current.published_at)} · <a href={LEGAL_PAGES[kind].path} target="_blank" rel="noopener">открыть страницу</a>. Новая редакция не меняет согласий, данных раньше: у каждого пользователя хранится редакция, с которой он согласился.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Текст (абзацы разделяются пустой строкой)
        </label>
        <textarea id={id} className="field__input admin-legal__text" rows={14} value={value} onChange={(e) => {
            setText(e.target.value);
            setMessage(null);
          }} disabled={busy} />
      </div>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <div>
        <Button busy={busy} disabled={busy || value.trim() === current.body} onClick={() => void publish()}>
          Опубликовать новую редакцию
        </Button>
      </div>
      <details className="admin-legal__versions">
        <summary>Все редакции ({doc.data.versions.length})</summary>
        <ul>
          {doc.data.versions.map((v) => (
            <li key={v.version}>
              Редакция {v.version} · {when(v.published_at)} · {v.author ?? 'исходный текст'}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
