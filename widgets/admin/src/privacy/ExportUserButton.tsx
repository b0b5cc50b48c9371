import { useState } from 'react';
import { Alert, Button, failureMessage } from '@app/kit';
import type { AdminApi } from '../api.ts';

/** Saves `data` as a JSON file through a temporary link (the browser's download). */
function download(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** «Выгрузить данные»: everything stored about the user as a JSON file, on the user's request under 152-ФЗ (the export is audit-logged). */
export function ExportUserButton({ api, userId }: { api: AdminApi; userId: number }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      download(`user-${String(userId)}.json`, await api.exportUser({ params: { id: userId } }));
    } catch (err) {
      setFailure(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" busy={busy} onClick={() => void run()}>
        Выгрузить данные (JSON)
      </Button>
      {failure && <Alert>{failure}</Alert>}
    </>
  );
}
