import dns from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { OpenAiProvider } from '../../src/providers/openai.provider.ts';
import { destinationRefusal, isPrivateAddress, privateAddressIn, type Lookup, type ProviderNetwork } from '../../src/providers/provider-network.ts';
import { ReplicateProvider } from '../../src/providers/replicate.provider.ts';
import { ProviderError } from '../../src/providers/types.ts';
import { RawFakeServer, networkFor } from '../support/ai-fakes.ts';

/*
 * Where provider calls may connect: private, loopback, link-local and unique-local addresses are
 * refused where the connection is made — an IP in the URL, or whatever a name resolves to then —
 * unless the host is configured; a key goes only to its configured hosts.
 */

const KEY = 'sk-trap-0123456789';

/** Records every request that reaches it, and whether a key came with it. */
const trap = new RawFakeServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'поймано' }, finish_reason: 'stop' }] }));
});
/** A configured host that redirects every request to the trap. */
const redirector = new RawFakeServer((req, res) => {
  res.writeHead(302, { location: `${trap.url}${req.path}` });
  res.end();
});

/** Names under `.test` resolve to 127.0.0.1 (`mixed.test` to a public address and 127.0.0.1); anything else as the system resolves it. */
const fakeDns: Lookup = (hostname, options, callback) => {
  if (!hostname.endsWith('.test')) return dns.lookup(hostname, options, callback);
  const addresses = hostname === 'mixed.test' ? [{ address: '93.184.215.14', family: 4 }, { address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
  if (options.all) callback(null, addresses);
  else callback(null, addresses[0]?.address ?? '', 4);
};

const networks: ProviderNetwork[] = [];
const network = (urls: string[]) => {
  const n = networkFor(urls, fakeDns);
  networks.push(n);
  return n;
};
const port = () => new URL(trap.url).port;

beforeAll(async () => {
  await Promise.all([trap.start(), redirector.start()]);
});
afterAll(async () => {
  await Promise.all(networks.map((n) => n.close()));
  await Promise.all([trap.stop(), redirector.stop()]);
});
beforeEach(() => {
  trap.requests.length = 0;
});

async function failure(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

const chat = (baseUrl: string, n: ProviderNetwork) => new OpenAiProvider({ baseUrl, apiKey: KEY, network: n, timeoutMs: 3000 }).completeChat({ model: 'm', messages: [{ role: 'user', text: 'Привет' }], maxOutputTokens: 8 });
/** A streamed answer (undici's `request`, not the SDK's fetch), read to its end. */
const streamed = async (baseUrl: string, n: ProviderNetwork) => {
  const events = [];
  for await (const event of new OpenAiProvider({ baseUrl, apiKey: KEY, network: n, timeoutMs: 3000 }).streamChat({ model: 'm', messages: [{ role: 'user', text: 'Привет' }], maxOutputTokens: 8, signal: new AbortController().signal })) events.push(event);
  return events;
};

describe('addresses', () => {
  test('private, loopback, link-local, unique-local and IPv4-mapped addresses are private; public ones are not', () => {
    const private_ = ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255'];
    const private6 = ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::1', 'ff02::1'];
    const public_ = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];
    for (const a of [...private_, ...private6]) expect(isPrivateAddress(a), a).toBe(true);
    for (const a of public_) expect(isPrivateAddress(a), a).toBe(false);
    expect(isPrivateAddress('not-an-ip')).toBe(true);
  });

  test('every IPv6 form that embeds an IPv4 address is private when the embedded address is', () => {
    // [embedding of a private address, the same form around a public one]
    const forms: [string, string, string][] = [
      ['IPv4-mapped', '::ffff:7f00:1', '::ffff:808:808'],
      ['IPv4-translated (dotted)', '::ffff:0:127.0.0.1', '::ffff:0:8.8.8.8'],
      ['IPv4-translated (hex)', '::ffff:0:7f00:1', '::ffff:0:808:808'],
      ['IPv4-translated, 10/8', '::ffff:0:a00:1', '::ffff:0:5db8:d70e'],
      ['IPv4-compatible (dotted)', '::10.1.2.3', '::8.8.8.8'],
      ['IPv4-compatible (hex)', '::a9fe:a9fe', '::808:808'],
      ['NAT64 64:ff9b::/96', '64:ff9b::7f00:1', '64:ff9b::808:808'],
      ['NAT64 64:ff9b::/96, dotted', '64:ff9b::192.168.0.1', '64:ff9b::1.1.1.1'],
      ['6to4 2002::/16', '2002:c0a8:101::1', '2002:808:808::1'],
      // Teredo: the server's address, then the client's with every bit flipped.
      ['Teredo, private client', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
      ['Teredo, private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
    ];
    for (const [form, private_, public_] of forms) {
      expect(isPrivateAddress(private_), `${form}: ${private_}`).toBe(true);
      expect(isPrivateAddress(public_), `${form}: ${public_}`).toBe(false);
    }
    // NAT64's local-use prefix is not the public internet whatever it embeds.
    for (const a of ['64:ff9b:1::808:808', '64:ff9b:1:7f00:1::']) expect(isPrivateAddress(a), a).toBe(true);
    // As a URL writes them: the host of a connection is refused on its face.
    for (const url of ['http://[::ffff:0:7f00:1]:8080/v1', 'http://[::ffff:0:127.0.0.1]/v1', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::]/', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/']) {
      const config = loadConfig({ NODE_ENV: 'test', LAB_API_KEY_HOSTS: new URL(url).host });
      expect(destinationRefusal(config, url, 'LAB_API_KEY'), url).toMatchObject({ reason: 'private' });
    }
  });

  test('a key goes only to its configured hosts; defaults for OpenAI and Replicate; a private host only when configured', () => {
    const config = loadConfig({ NODE_ENV: 'test', LAB_API_KEY_HOSTS: 'api.lab.example, 127.0.0.1:8080', PROVIDER_PRIVATE_HOSTS: '127.0.0.1:8080,[::1]:11434' });
    expect(destinationRefusal(config, 'https://api.openai.com/v1', 'OPENAI_API_KEY')).toBeNull();
    expect(destinationRefusal(config, 'https://api.replicate.com', 'REPLICATE_API_TOKEN')).toBeNull();
    expect(destinationRefusal(config, 'https://openrouter.ai/api/v1', 'OPENAI_API_KEY')).toEqual({ reason: 'key_host', keyEnv: 'OPENAI_API_KEY', host: 'openrouter.ai', allowed: ['api.openai.com'] });
    expect(destinationRefusal(config, 'https://api.lab.example:8443/v1', 'LAB_API_KEY')).toBeNull();
    expect(destinationRefusal(config, 'http://127.0.0.1:8080/v1', 'LAB_API_KEY')).toBeNull();
    expect(destinationRefusal(config, 'http://127.0.0.1:8081/v1', 'LAB_API_KEY')).toMatchObject({ reason: 'key_host', host: '127.0.0.1:8081' });
    expect(destinationRefusal(config, 'https://api.lab.example/v1', 'OTHER_API_KEY')).toEqual({ reason: 'key_host', keyEnv: 'OTHER_API_KEY', host: 'api.lab.example', allowed: [] });
    const everywhere = loadConfig({ NODE_ENV: 'test', LAB_API_KEY_HOSTS: 'localhost,[::1],[::ffff:127.0.0.1],169.254.169.254,10.0.0.5,2130706433' });
    for (const url of ['http://localhost:3000', 'http://[::1]:8000', 'http://[::ffff:127.0.0.1]', 'http://169.254.169.254/latest', 'http://10.0.0.5/v1', 'http://2130706433/v1']) {
      expect(destinationRefusal(everywhere, url, 'LAB_API_KEY'), url).toMatchObject({ reason: 'private' });
    }
    expect(() => loadConfig({ NODE_ENV: 'test', LAB_API_KEY_HOSTS: 'https://api.lab.example/v1' })).toThrow(/LAB_API_KEY_HOSTS: "https:\/\/api.lab.example\/v1" is not a host/);
    expect(() => loadConfig({ NODE_ENV: 'test', PROVIDER_PRIVATE_HOSTS: '127.0.0.1:99999' })).toThrow(/PROVIDER_PRIVATE_HOSTS: "127.0.0.1:99999" is not a host/);
    // An empty list is unset: the default applies.
    expect(loadConfig({ NODE_ENV: 'test', OPENAI_API_KEY_HOSTS: ' ' }).providerKeyHosts.OPENAI_API_KEY).toEqual([{ host: 'api.openai.com', port: null }]);
  });
});

describe('connections', () => {
  test('a trap on 127.0.0.1, by IP or by a name that resolves there, receives nothing unless its host and port are configured', async () => {
    const closed = network([]);
    const urls = [
      `${trap.url}/v1`,
      `http://[::ffff:127.0.0.1]:${port()}/v1`,
      `http://[::ffff:0:7f00:1]:${port()}/v1`,
      `http://2130706433:${port()}/v1`,
      `http://localhost:${port()}/v1`,
      `http://rebind.test:${port()}/v1`,
      `http://mixed.test:${port()}/v1`,
    ];
    for (const url of urls) {
      for (const call of [chat, streamed]) {
        const e = await failure(() => call(url, closed));
        expect(e, `${call.name} ${url}`).toMatchObject({ kind: 'bad_request', retryable: false });
        expect(privateAddressIn(e), `${call.name} ${url}`).toBeDefined();
      }
    }
    // Another port of the same host is not configured by this one.
    expect(privateAddressIn(await failure(() => chat(`${trap.url}/v1`, network(['http://127.0.0.1:1']))))).toBeDefined();
    expect(privateAddressIn(await failure(() => streamed(`${trap.url}/v1`, network(['http://127.0.0.1:1']))))).toBeDefined();
    const replicate = new ReplicateProvider({ baseUrl: trap.url, apiToken: KEY, fetch: closed.fetch });
    expect(privateAddressIn(await failure(() => replicate.get('p1')))).toBeDefined();
    expect(privateAddressIn(await failure(() => replicate.download(`${trap.url}/files/out.png`, { maxBytes: 100 })))).toBeDefined();
    expect(trap.requests).toEqual([]);

    expect((await chat(`${trap.url}/v1`, network([trap.url]))).text).toBe('поймано');
    expect((await chat(`http://rebind.test:${port()}/v1`, network([`http://rebind.test:${port()}`]))).text).toBe('поймано');
    expect(trap.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  test('a redirect from a configured host to an unconfigured private one is refused there too', async () => {
    const e = await failure(() => chat(`${redirector.url}/v1`, network([redirector.url])));
    expect(privateAddressIn(e)).toBeDefined();
    expect(redirector.requests.length).toBeGreaterThan(0);
    // A streamed answer follows no redirect at all: the 3xx is the provider's failure.
    const before = redirector.requests.length;
    expect(await failure(() => streamed(`${redirector.url}/v1`, network([redirector.url])))).toMatchObject({ status: 302 });
    expect(redirector.requests.length).toBe(before + 1);
    expect(trap.requests).toEqual([]);
  });

  test('the provider’s own message is kept apart from the raw body: OpenAI’s error.message, Replicate’s detail, nothing from HTML', async () => {
    const bodies: [number, string, string][] = [];
    const lab = new RawFakeServer((_req, res) => {
      const [status, type, body] = bodies.shift() ?? [500, 'text/plain', 'no reply queued'];
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
    await lab.start();
    try {
      const n = network([lab.url]);
      bodies.push([400, 'application/json', JSON.stringify({ error: { message: 'The model `m` does not exist', type: 'invalid_request_error' }, internal: 'SECRET-INTERNAL' })]);
      expect(await failure(() => chat(`${lab.url}/v1`, n))).toMatchObject({ kind: 'bad_request', status: 400, providerMessage: 'The model `m` does not exist' });
      bodies.push([502, 'text/html', '<html><body>SECRET-INTERNAL admin page</body></html>']);
      const html = await failure(() => chat(`${lab.url}/v1`, n));
      expect(html).toMatchObject({ kind: 'unavailable', status: 502 });
      expect(html.providerMessage).toBeUndefined();
      const replicate = new ReplicateProvider({ baseUrl: lab.url, apiToken: KEY, fetch: n.fetch });
      bodies.push([403, 'application/problem+json', JSON.stringify({ title: 'Forbidden', detail: 'This token cannot read predictions', status: 403, trace: 'SECRET-INTERNAL' })]);
      expect(await failure(() => replicate.get('p1'))).toMatchObject({ kind: 'auth', providerMessage: 'This token cannot read predictions' });
      bodies.push([404, 'text/html', '<h1>SECRET-INTERNAL</h1>']);
      expect((await failure(() => replicate.get('p1'))).providerMessage).toBeUndefined();
    } finally {
      await lab.stop();
    }
  });
});
