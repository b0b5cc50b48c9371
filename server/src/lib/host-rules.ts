/** One entry of a host list in the configuration (`api.openai.com`, `127.0.0.1:11434`, `[::1]:8000`). */
export interface HostRule {
  /** As the URL parser writes it: lower case, punycode, an IPv4 address normalised, an IPv6 one without brackets. */
  host: string;
  /** `null`: any port of that host. */
  port: number | null;
}

const ENTRY = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]\\]+)(?::(\d{1,5}))?$/;

/** `host` as a URL's `hostname` would have it, brackets dropped; undefined when it is no host. */
export function normalizeHost(host: string): string | undefined {
  try {
    const hostname = new URL(`http://${host}/`).hostname;
    return hostname ? hostname.replace(/^\[(.*)\]$/, '$1') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A comma-separated host list: each entry a host name or IP address, optionally with a port
 * (`host:port`, `[v6]:port`). Answers the rules and, for each entry that is not one, why.
 */
export function parseHostRules(value: string): { rules: HostRule[]; errors: string[] } {
  const rules: HostRule[] = [];
  const errors: string[] = [];
  for (const entry of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = ENTRY.exec(entry);
    const host = match?.[1] === undefined ? undefined : normalizeHost(match[1]);
    const port = match?.[2] === undefined ? null : Number(match[2]);
    if (!host || (port !== null && (port < 1 || port > 65535))) {
      errors.push(`"${entry}" is not a host or host:port (e.g. api.openai.com or 127.0.0.1:11434)`);
      continue;
    }
    rules.push({ host, port });
  }
  return { rules, errors };
}

/** The host (brackets dropped) and port a URL connects to, the scheme's default port when it names none. */
export function urlEndpoint(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
}

/** Whether `host` (normalised) on `port` is one the rules list. */
export const ruleMatches = (rules: readonly HostRule[], host: string, port: number): boolean => rules.some((r) => r.host === host && (r.port === null || r.port === port));

/** A rule as it is written in the configuration. */
export const formatRule = (r: HostRule): string => {
  const host = r.host.includes(':') ? `[${r.host}]` : r.host;
  return r.port === null ? host : `${host}:${String(r.port)}`;
};
