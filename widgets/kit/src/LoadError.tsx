import { Alert, Button } from './ui.tsx';

/** A load failure with its message and a retry button. */
export function LoadError({ message, onRetry, retryLabel = 'Повторить' }: { message: string; onRetry: () => void; retryLabel?: string }) {
  return (
    <div className="load-error">
      <Alert>{message}</Alert>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
