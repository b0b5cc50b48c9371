import fc from 'fast-check';
import type { $ZodType } from 'zod/v4/core';
import type { RouteContract } from '@app/contracts';
import { TINY_PNG } from './ai-fakes.ts';
import { multipart } from './http.ts';

/*
 * Hostile requests for any contract route, for the fuzz test: path parameters, query strings and
 * bodies shaped after the route's own schemas (so values get past the parser and validation to
 * the code behind them) but filled with what breaks code — huge and negative ids, NUL, lone
 * surrogates, deep nesting, prototype keys, wrong types — and bodies that are not what the route
 * reads at all (multipart without a boundary, garbage).
 */

/** Percent-encodes every UTF-16 unit the way a sloppy client would: a lone surrogate becomes its 3 bytes (invalid UTF-8). */
export function percentEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    if (/^[A-Za-z0-9_.~-]$/.test(ch)) {
      out += ch;
      continue;
    }
    const code = ch.codePointAt(0) ?? 0;
    const bytes = code >= 0xd800 && code <= 0xdfff ? Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]) : Buffer.from(ch, 'utf8');
    for (const b of bytes) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Strings that have broken servers: NUL, lone surrogates, control and bidi characters, SQL and path tricks, long ones. */
const NASTY_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '😀\ud800',
  '\u202e\u0000\ufeff',
  '\\',
  '\'; drop table users; --',
  '%',
  '%00',
  '../../etc/passwd',
  '{name}',
  '{{',
  '<script>alert(1)</script>',
  'Привет, мир',
  'test@example.ru',
  'http://127.0.0.1:9/x',
  'tg://resolve',
  '00000000-0000-4000-8000-000000000000',
  '2147483648',
  '-1',
  'NaN',
  'true',
  'null',
  '__proto__',
  'constructor',
  'ё'.repeat(600),
  'x'.repeat(5_001),
];

/** Numbers past every column's range, and the odd ones out. */
const NASTY_NUMBERS = [0, -0, -1, 1, 2, 0.5, -0.1, 1e-7, 100.000001, 2_147_483_647, 2_147_483_648, -2_147_483_649, 4_294_967_296, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE];

/** Keys that collide with `Object.prototype` or with what the server treats specially. */
const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '_method', '_token', '', '\u0000', '\ud800', 'a.b', '0', 'length'];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', 'a', 'я', '😀', '{', '}', '%', '"'), maxLength: 20 }) },
);

const nastyNumber: fc.Arbitrary<number> = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NASTY_NUMBERS) }, { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) }, { weight: 1, arbitrary: fc.integer() });

/** Arrays nested `depth` deep around `inner` (deeper than the parser's limit of 32 at the top end). */
const nested = (depth: number, inner: unknown): unknown => (depth <= 0 ? inner : [nested(depth - 1, inner)]);

/** Any JSON value, the hostile kinds favoured. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 3 }),
    fc.integer({ min: 20, max: 40 }).map((depth) => nested(depth, 1)),
  ),
})).value;

type Def = { type: string; checks?: { _zod: { def: CheckDef } }[]; [key: string]: unknown };
type CheckDef = { check: string; minimum?: number; maximum?: number; length?: number; value?: number; inclusive?: boolean; format?: string; pattern?: RegExp };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((c) => c._zod.def);

/** The object shape under wrappers (optional, default, pipes, checks), if the schema is an object. */
export function shapeOf(schema: unknown): Record<string, $ZodType> | undefined {
  const def = defOf(schema);
  if (!def) return undefined;
  switch (def.type) {
    case 'object':
      return def.shape as Record<string, $ZodType>;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return shapeOf(def.innerType);
    case 'pipe':
      return shapeOf(def.in);
    default:
      return undefined;
  }
}

/** Ordinary text a field may hold (words, site paths, addresses — loopback only, the fuzz calls providers — the plans' markers), for a hostile character to hide in. */
const PLAIN = ['', 'Текст', 'x', '/chat', 'http://127.0.0.1:9/a', 'mailto:help@example.ru', 'tg://resolve?domain=x', '@neurostudio_news', '[[words]]', 'Кот в шляпе', '{prompt}', '  '];
/** Characters that break storage (NUL, lone surrogates) or rendering (bidi and zero-width marks), and look-alikes of them. */
const HOSTILE = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d') }, { weight: 1, arbitrary: fc.constantFrom('😀', '\u202e', '\u200b', '%00', '\\u0000', '"') });

/** Text of a field's length limits, with one hostile character after ordinary text (a path, an address, words). */
function textBetween(min: number, max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...PLAIN), HOSTILE, fc.constantFrom('', 'x', 'Текст')).map(([a, hostile, b]) => {
    const text = `${a}${hostile}${b}`;
    return text.length < min ? text.padEnd(min, 'ю') : text.slice(0, Math.max(max, 1));
  });
}

/** A string for a string schema: of its format or pattern where it has one, else text of its length with something hostile in it. */
function stringFor(def: Def): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format')?.format;
  const pattern = (def.pattern as RegExp | undefined) ?? checks.find((c) => c.check === 'string_format')?.pattern;
  const min = Math.max(0, ...checks.map((c) => (c.check === 'min_length' ? (c.minimum ?? 0) : c.check === 'length_equals' ? (c.length ?? 0) : 0)));
  const max = Math.min(5_000, ...checks.map((c) => (c.check === 'max_length' ? (c.maximum ?? 5_000) : c.check === 'length_equals' ? (c.length ?? 5_000) : 5_000)));
  if (format === 'uuid' || format === 'guid') return fc.uuid();
  if (format === 'email') return fc.constantFrom('fuzz@example.ru', 'Fuzz.User@Example.RU', 'a+b@mail.example.com');
  if (format === 'regex' && pattern) return fc.stringMatching(pattern).filter((v) => v.length >= min && v.length <= max);
  return textBetween(min, max);
}

/** A number for a number schema: mostly within its bounds (whole where it must be), sometimes a record's id, sometimes anything. */
function numberFor(def: Def, ids: readonly number[], valid: boolean): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const isInt = def.format !== undefined || checks.some((c) => c.check === 'number_format');
  const low = Math.max(-1e9, ...checks.filter((c) => c.check === 'greater_than').map((c) => (c.value ?? -1e9) + (c.inclusive ? 0 : isInt ? 1 : 0.1)));
  const high = Math.min(1e9, ...checks.filter((c) => c.check === 'less_than').map((c) => (c.value ?? 1e9) - (c.inclusive ? 0 : isInt ? 1 : 0.1)));
  const inRange = low <= high ? (isInt ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) }) : fc.integer({ min: Math.ceil(low * 10), max: Math.floor(high * 10) }).map((n) => n / 10)) : nastyNumber;
  if (valid) return inRange;
  return fc.oneof({ weight: 4, arbitrary: inRange }, { weight: 2, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: nastyNumber });
}

/**
 * A value for `schema`: mostly of the kind, format and bounds it asks for (so validation lets it
 * through and the code behind it runs), filled with hostile content, and sometimes anything at
 * all. `valid`: always of its kind and bounds (only the text is hostile), so a whole body passes.
 */
export function valueFor(schema: unknown, ids: readonly number[], depth = 0, valid = false): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const plausible = ((): fc.Arbitrary<unknown> => {
    if (!def || depth > 6) return nastyJson;
    switch (def.type) {
      case 'string':
        return valid ? stringFor(def) : fc.oneof({ weight: 4, arbitrary: stringFor(def) }, { weight: 1, arbitrary: nastyString });
      case 'number':
      case 'int':
      case 'bigint':
        return numberFor(def, ids, valid);
      case 'boolean':
        return fc.boolean();
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
      case 'literal':
        return fc.constantFrom(...(def.values as unknown[]));
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(valueFor(def.element, ids, depth + 1, valid), { maxLength: 3 });
      case 'tuple':
        return fc.tuple(...(def.items as unknown[]).map((item) => valueFor(item, ids, depth + 1, valid)));
      case 'record':
        return fc.dictionary(valid ? fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/) : fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), fc.constantFrom(...NASTY_KEYS)), valueFor(def.valueType, ids, depth + 1, valid), { maxKeys: 3 });
      case 'union':
        return fc.oneof(...(def.options as unknown[]).map((option) => valueFor(option, ids, depth + 1, valid)));
      case 'object':
        return objectFor(def.shape as Record<string, unknown>, ids, depth + 1, valid);
      case 'nullable':
        return fc.oneof({ weight: 4, arbitrary: valueFor(def.innerType, ids, depth, valid) }, { weight: 1, arbitrary: fc.constant(null) });
      case 'optional':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        return valueFor(def.innerType, ids, depth, valid);
      case 'pipe': {
        // A coercing pipe (ids in paths and queries) is checked by its output; a transforming one by its input.
        const input = defOf(def.in);
        return valueFor(input?.type === 'number' && input.coerce ? def.out : def.in, ids, depth, valid);
      }
      default:
        return nastyJson;
    }
  })();
  return valid ? plausible : fc.oneof({ weight: 8, arbitrary: plausible }, { weight: 1, arbitrary: nastyJson });
}

/** An object with most of `shape`'s fields (each of its kind, mostly) and, unless `valid`, now and then a stray key. */
export function objectFor(shape: Record<string, unknown>, ids: readonly number[], depth = 0, valid = false): fc.Arbitrary<Record<string, unknown>> {
  // Valid: every required field, each optional one half the time; otherwise any field may be missing.
  const fields = Object.entries(shape).map(([key, schema]) => {
    const entry = valueFor(schema, ids, depth, valid).map((value) => [key, value] as const);
    const optional = ['optional', 'default', 'prefault'].includes(defOf(schema)?.type ?? '');
    return valid && !optional ? entry : fc.option(entry, { freq: valid ? 2 : 8, nil: undefined });
  });
  const stray = valid ? fc.constant(null) : fc.option(fc.dictionary(fc.constantFrom(...NASTY_KEYS.filter((k) => k !== '__proto__')), nastyJson, { maxKeys: 2 }), { freq: 8 });
  return fc
    .tuple(fc.tuple(...fields), stray)
    .map(([known, stray]) => ({ ...Object.fromEntries(known.filter((entry) => entry !== undefined)), ...(stray ?? {}) }));
}

/** A path parameter: an id of a real record, a hostile number or a hostile string, already in the URL's encoding. */
export function pathParam(ids: readonly number[]): fc.Arbitrary<string> {
  const raw = ['0', '-1', '2147483647', '2147483648', '4294967296', '9007199254740991', '9007199254740993', '99999999999999999999', '1e3', '1.5', '1,5', 'NaN', 'Infinity', '0x10', '%201', '1%20', '%D9%A1', '%00', '%ED%A0%80', '%F0%9F%98%80', '%ZZ', '%', '..', '%2F', '%2e%2e', 'abc', '%D0%B0%D0%B1', '9'.repeat(150)];
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids).map(String) }, { weight: 3, arbitrary: fc.constantFrom(...raw) }, { weight: 1, arbitrary: nastyString.map(percentEncode) });
}

/** A query string (with its `?`) of the schema's keys and stray ones, values of their kind or hostile, some raw escapes. */
export function queryString(schema: unknown, ids: readonly number[]): fc.Arbitrary<string> {
  const keys = Object.keys(shapeOf(schema) ?? {});
  const key = keys.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.constantFrom(...NASTY_KEYS) }) : fc.constantFrom(...NASTY_KEYS, 'page', 'id', 'q');
  const shape = shapeOf(schema) ?? {};
  const pair = key.chain((k) =>
    fc
      .oneof(
        { weight: 3, arbitrary: valueFor(shape[k], ids).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
        { weight: 2, arbitrary: fc.constantFrom('2147483648', '-1', '1.5', '', '%00', '%ED%A0%80', '%ZZ', '9'.repeat(40)).map((raw) => ({ raw })) },
      )
      .map((v) => (typeof v === 'string' ? `${percentEncode(k)}=${percentEncode(v)}` : `${percentEncode(k)}=${v.raw}`)),
  );
  return fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join('&')}`) }, { weight: 1, arbitrary: fc.constantFrom('?', '?&&=', '?=x', '?a[b]=1', '?page[]=1&page[]=2', '?%') });
}

/** What goes in a request's body: nothing, JSON text, another content type's bytes, or multipart parts. */
export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'raw'; contentType: string; payload: string | Buffer };

/** JSON texts that no value serializes to: prototype keys, bad syntax, depth past the limit, escapes of lone surrogates. */
const RAW_JSON = [
  '',
  'null',
  '[]',
  '"x"',
  '1e999',
  '{',
  '{"a":1,}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"name":"\\ud800","title":"\\u0000","reason":"\\udfff\\u0000"}',
  `{"a":${'['.repeat(40)}${']'.repeat(40)}}`,
  '\u0000',
];

/** A JSON body shaped after `schema`. */
export function jsonBody(schema: unknown, ids: readonly number[]): fc.Arbitrary<FuzzBody> {
  const shape = shapeOf(schema);
  const value = shape ? fc.oneof({ weight: 3, arbitrary: objectFor(shape, ids, 0, true) }, { weight: 1, arbitrary: objectFor(shape, ids) }) : nastyJson;
  return fc.oneof(
    { weight: 6, arbitrary: value.map((v) => ({ kind: 'raw' as const, contentType: 'application/json', payload: JSON.stringify(v) })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_JSON).map((payload) => ({ kind: 'raw' as const, contentType: 'application/json', payload })) },
    { weight: 1, arbitrary: nastyJson.map((v) => ({ kind: 'raw' as const, contentType: 'application/json; charset=utf-8', payload: JSON.stringify(v) })) },
  );
}

/** Multipart content types without a boundary busboy can use. */
const BROKEN_MULTIPART = ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'multipart/form-data; charset=utf-8'];

/** Bodies that are not what a route reads: multipart without a (valid) boundary, garbage under other types. */
export const foreignBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constantFrom(
    ...BROKEN_MULTIPART,
    'multipart/form-data; boundary=x; boundary=y',
    'multipart/mixed; boundary=x',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/octet-stream',
    'application/json; charset=koi8-r',
    'application/xml',
  ).chain((contentType) => fc.oneof(fc.constantFrom('', 'garbage', '--x\r\n\r\n--x--', 'a=1&a=2&_method=DELETE&%ZZ=%ED%A0%80'), fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b))).map((payload) => ({ kind: 'raw' as const, contentType, payload }))),
);

/** A multipart body with the route's fields (values as text) and files of its fields: real PNGs, garbage, empty, or under fields it does not take. */
export function multipartBody(contract: RouteContract, ids: readonly number[]): fc.Arbitrary<FuzzBody> {
  const shape = shapeOf(contract.body) ?? {};
  const fileFields = Object.keys(contract.multipart?.files ?? {});
  const fields = fc.oneof({ weight: 3, arbitrary: objectFor(shape, ids, 0, true) }, { weight: 1, arbitrary: objectFor(shape, ids) }).map((values) =>
    Object.entries(values).map(([name, v]) => ({ name, value: typeof v === 'string' ? v : JSON.stringify(v) })),
  );
  const fileData = fc.oneof(fc.constant(TINY_PNG), fc.constant(Buffer.alloc(0)), fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)), fc.constant(Buffer.concat([TINY_PNG.subarray(0, 16), Buffer.from('garbage')])));
  const file = fc.record({
    name: fc.oneof(fc.constantFrom(...(fileFields.length ? fileFields : ['file'])), fc.constantFrom('other', '\u0000', '"')),
    file: fc.record({ filename: fc.constantFrom('a.png', '', '../../x.png', 'я\u0000.png', '\ud800.png', '"quoted".png'), type: fc.constantFrom('image/png', 'application/json', ''), data: fileData }),
  });
  // Now and then the parts go under a content type busboy cannot split: no boundary, an empty or an overlong one.
  const contentType = (own: string) => fc.oneof({ weight: 4, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.constantFrom(...BROKEN_MULTIPART) });
  return fc.tuple(fields, fc.array(file, { maxLength: 3 })).chain(([textParts, files]) => {
    const body = multipart([...textParts, ...files]);
    return contentType(body.headers['content-type'] ?? '').map((type) => ({ kind: 'raw' as const, contentType: type, payload: body.payload }));
  });
}

/** A body for `contract`, of the kind it reads or not. */
export function bodyFor(contract: RouteContract, ids: readonly number[]): fc.Arbitrary<FuzzBody> {
  if (contract.method === 'GET') return fc.oneof({ weight: 8, arbitrary: fc.constant({ kind: 'none' as const }) }, { weight: 1, arbitrary: foreignBody });
  const own = contract.multipart ? multipartBody(contract, ids) : jsonBody(contract.body, ids);
  return fc.oneof({ weight: 8, arbitrary: own }, { weight: 1, arbitrary: foreignBody }, { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) });
}
