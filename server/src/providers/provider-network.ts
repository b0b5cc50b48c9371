import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, request as undiciRequest, type Dispatcher } from 'undici';
import { formatRule, ruleMatches, urlEndpoint, type HostRule } from '../lib/host-rules.ts';

/*
 * Where provider calls may connect. Every request of the adapters (the `openai` SDK, Replicate's
 * API, output downloads) goes through one undici Agent whose connector refuses private, loopback,
 * link-local and unique-local addresses — an IP in the URL, or any address a name resolves to, at
 * the moment of connecting, so a name that resolves elsewhere later (DNS rebinding) gains nothing —
 * unless the URL's host and port are listed in `PROVIDER_PRIVATE_HOSTS`.
 */

/** Addresses no provider call reaches unless its host is configured: IPv4 and IPv6 ranges that are not the public internet. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 itself reaches this machine
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, and some clouds' metadata services
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail and a zone allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The IPv4 addresses an IPv6 one carries, in every form that embeds one: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64's
 * well-known prefix (`64:ff9b::a.b.c.d`; its local-use `64:ff9b:1::/48` is refused whole), 6to4
 * (`2002:AABB:CCDD::`) and Teredo (`2001:0:<server>::<client XOR ffff:ffff>`: both).
 */
function embeddedIpv4(groups: number[]): string[] {
  const [g0, g1 = 0, g2 = 0, g3 = 0, g4, g5, g6 = 0, g7 = 0] = groups;
  const v4 = (hi: number, lo: number) => `${String(hi >> 8)}.${String(hi & 255)}.${String(lo >> 8)}.${String(lo & 255)}`;
  const zeros = (...gs: (number | undefined)[]) => gs.every((g) => g === 0);
  if (zeros(g0, g1, g2, g3) && ((g4 === 0 && (g5 === 0xffff || g5 === 0)) || (g4 === 0xffff && g5 === 0))) return [v4(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return [v4(g6, g7)];
  if (g0 === 0x2002) return [v4(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** Whether `address` (an IP) is private, loopback, link-local, unique-local or otherwise not a public unicast address; anything that is not an IP counts as one. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address.replace(/%.*$/, ''));
  if (version === 4) return NOT_PUBLIC.check(address, 'ipv4');
  if (version !== 6) return true;
  const plain = address.replace(/%.*$/, '');
  if (embeddedIpv4(ipv6Groups(plain)).some(isPrivateAddress)) return true;
  return NOT_PUBLIC.check(plain, 'ipv6');
}

/**
 * Whether a URL's host (brackets dropped) is private on its face: an IP address that is, or
 * `localhost` and its subdomains (RFC 6761). Other names are judged by what they resolve to, when
 * connecting.
 */
export function isPrivateHost(host: string): boolean {
  if (isIP(host)) return isPrivateAddress(host);
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A connection refused because its host is, or resolves to, a private address that is not configured. */
export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
  readonly code = 'ERR_PROVIDER_PRIVATE_ADDRESS';

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(host === address ? `${host} is a private address, not in PROVIDER_PRIVATE_HOSTS` : `${host} resolves to ${address}, a private address, and is not in PROVIDER_PRIVATE_HOSTS`);
  }
}

/** The {@link PrivateAddressError} somewhere in `err`'s chain of causes (fetch and the SDK wrap it), if any. */
export function privateAddressIn(err: unknown): PrivateAddressError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof PrivateAddressError) return current;
    current = current.cause;
  }
  return undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup`'s shape, as `net.connect` calls it. */
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** `lookup`, refusing a name when any of its addresses is private (all of them are asked for, so the answer cannot mix one in). */
function refusingPrivate(lookup: Lookup): Lookup {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '');
      const addresses = Array.isArray(found) ? found : [{ address: found, family: isIP(found) }];
      const refused = addresses.find((a) => isPrivateAddress(a.address));
      if (refused) return callback(new PrivateAddressError(hostname, refused.address), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/** A request through undici's own API: its reply's body is a Node stream, without fetch's web streams and Request and Response objects. */
export type ProviderRequest = (url: string, options: { method: 'POST' | 'GET'; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<Dispatcher.ResponseData>;

/** What provider adapters send their requests through. */
export interface ProviderNetwork {
  /** `fetch`, connecting only where {@link createProviderNetwork}'s rules allow. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * The same connections through undici's `request`: what a streamed chat answer is read with,
   * once per message, where fetch's own work is a measurable part of the app's time. It follows
   * no redirect (a 3xx is the reply).
   */
  readonly request: ProviderRequest;
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

/**
 * A `fetch` whose connections refuse private addresses except the hosts `privateHosts` lists
 * (matched by the URL's host and port, before any lookup). `lookup` resolves names (tests give
 * their own; default `dns.lookup`).
 */
export function createProviderNetwork(opts: { privateHosts: readonly HostRule[]; lookup?: Lookup }): ProviderNetwork {
  const lookup: Lookup = opts.lookup ?? dns.lookup;
  const open = buildConnector({ lookup });
  const guarded = buildConnector({ lookup: refusingPrivate(lookup) });
  const agent = new Agent({
    connect: (options, callback) => {
      const host = options.hostname.toLowerCase();
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      if (ruleMatches(opts.privateHosts, host, port)) return open(options, callback);
      // An IP in the URL is connected to without a lookup: judged here.
      if (isIP(host) && isPrivateAddress(host)) return callback(new PrivateAddressError(host, host), null);
      return guarded(options, callback);
    },
  });
  // Every caller here (the SDK, the adapters) passes a URL and an init, never a Request object; the
  // Response is undici's own class, the one Node's global fetch is built from.
  const fetch = (input: string | URL, init?: RequestInit) => undiciFetch(input, { ...init, dispatcher: agent });
  const request: ProviderRequest = (url, options) => undiciRequest(url, { ...options, dispatcher: agent });
  return { fetch: fetch as unknown as typeof globalThis.fetch, request, close: () => agent.close() };
}

let strict: ProviderNetwork | undefined;

/** The network of adapters made without one: no private host is reachable through it. */
export const defaultProviderNetwork = (): ProviderNetwork => (strict ??= createProviderNetwork({ privateHosts: [] }));

/** The fetch of adapters made without one: no private host is reachable through it. */
export const defaultProviderFetch: typeof globalThis.fetch = (input, init) => defaultProviderNetwork().fetch(input, init);

/** Where keys may go and which private hosts may be reached: the configuration's part. */
export interface DestinationPolicy {
  providerKeyHosts: Readonly<Record<string, readonly HostRule[]>>;
  providerPrivateHosts: readonly HostRule[];
}

/** Why a connection may not call its base URL: the key may not go to that host, or the host is private and not configured. */
export type DestinationRefusal =
  | { reason: 'not_url' }
  /** `host` as the URL writes it (`api.example.com`, `127.0.0.1:8080`); `allowed`: the key's hosts as configured. */
  | { reason: 'key_host'; keyEnv: string; host: string; allowed: string[] }
  | { reason: 'private'; host: string };

/**
 * Whether a connection's requests may go to `baseUrl` with the key of `keyEnv`: the URL's host
 * (and port) must be one of that key's hosts, and must not be private on its face (an IP or
 * `localhost`) unless `PROVIDER_PRIVATE_HOSTS` lists it. Names that resolve to private addresses
 * are caught when connecting ({@link createProviderNetwork}). Null when it may.
 */
export function destinationRefusal(policy: DestinationPolicy, baseUrl: string, keyEnv: string | null): DestinationRefusal | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { reason: 'not_url' };
  }
  const { host, port } = urlEndpoint(url);
  if (keyEnv !== null) {
    const allowed = policy.providerKeyHosts[keyEnv] ?? [];
    if (!ruleMatches(allowed, host, port)) return { reason: 'key_host', keyEnv, host: url.host, allowed: allowed.map(formatRule) };
  }
  if (isPrivateHost(host) && !ruleMatches(policy.providerPrivateHosts, host, port)) return { reason: 'private', host: url.host };
  return null;
}

/** A refusal in English, for logs and provider errors. */
export function describeRefusal(refusal: DestinationRefusal): string {
  switch (refusal.reason) {
    case 'not_url':
      return 'the base URL is not a URL';
    case 'key_host':
      return refusal.allowed.length
        ? `the key of ${refusal.keyEnv} may go only to ${refusal.allowed.join(', ')} (${refusal.keyEnv}_HOSTS), not to ${refusal.host}`
        : `the key of ${refusal.keyEnv} may go nowhere: ${refusal.keyEnv}_HOSTS is not set`;
    case 'private':
      return `${refusal.host} is a private address, not in PROVIDER_PRIVATE_HOSTS`;
  }
}
