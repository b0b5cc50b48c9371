import { ProviderError } from '../../providers/types.ts';

/**
 * The kind a failed provider call is counted under: 429 (`rate_limited`), 5xx (`server_error`),
 * no answer at all (`unreachable`), another refusal to serve (`unavailable`: 402, the account's
 * money ran out), `timeout`, a request refused by the provider or by the network
 * rules (`refused`), `auth`, `invalid_response`, a connection set up wrong (`misconfigured`) or
 * `other`. A call its caller aborted (a stopped answer, a job stopping) is no failure: null.
 */
export function providerErrorKind(err: unknown): string | null {
  if (!(err instanceof ProviderError)) return 'other';
  if (err.misconfigured) return 'misconfigured';
  switch (err.kind) {
    case 'aborted':
      return null;
    case 'unavailable':
      if (err.status === undefined) return 'unreachable';
      return err.status >= 500 ? 'server_error' : 'unavailable';
    case 'bad_request':
      return 'refused';
    default:
      return err.kind;
  }
}
