/**
 * fast-check generators of hostile /mcp traffic (test/system/fuzz.test.ts): request bodies (bytes, text,
 * JSON, JSON-RPC-shaped messages, batches, deep nesting, bodies around the size limit), headers (media
 * types, Accept, protocol versions, origins, API keys in every shape) and tool arguments derived from
 * the tools' input schemas, both valid and mutated. Header values stay within what HTTP/1.1 can carry
 * (tab, printable ASCII, bytes 0x80-0xFF); Unicode arrives as its UTF-8 bytes, as on the wire.
 */
import fc from 'fast-check';
import { keyWithBody } from '../../lib/keys/format.ts';

/** Header name to value; an array sends the header once per value. */
type HeaderMap = Record<string, string | string[]>;

/** One generated request, sent as is by test/support/raw-http.ts. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: HeaderMap;
  /** A string is sent as UTF-8. */
  body: string | Uint8Array;
  /** Send Content-Length (true) or stream the body chunked (false; POST, PUT and PATCH only). */
  contentLength: boolean;
}

/** The keys the server knows, created by the test before the generators run. */
export interface FuzzKeys {
  pro: string;
  free: string;
  disabled: string;
}

// ─── JSON text with values JSON.stringify cannot produce ─────────────────────────────────────────

const RAW = '\u0000raw:';
/** A placeholder that toJsonText replaces with `text` verbatim, e.g. 1e999 (which parses to Infinity). */
const raw = (text: string) => `${RAW}${text}\u0000`;
const RAW_PLACEHOLDER = /"\\u0000raw:(.*?)\\u0000"/g;

export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(RAW_PLACEHOLDER, (_, text: string) => JSON.parse(`"${text}"`));
}

const rawNumbers = fc
  .constantFrom(
    '1e999',
    '-1e999',
    '1E400',
    '-0',
    '0e0',
    '1e-400',
    '123456789012345678901234567890',
    '1.7976931348623157e308',
    '5e-324',
  )
  .map(raw);

/** An object with `name` as an own, enumerable property even when it is "__proto__". */
function withOwn(target: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'then',
];
const prototypeName = fc.constantFrom(...PROTOTYPE_NAMES);
const pollution = fc.constantFrom<unknown>({ polluted: true }, { isAdmin: true, tier: 'pro' }, null, 'x', 1, [], {
  toString: 'boom',
});

// ─── Header values ───────────────────────────────────────────────────────────────────────────────

/** Characters HTTP/1.1 header values may hold (RFC 9110 field-vchar, SP, HTAB, obs-text). */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff }))
  .map((code) => String.fromCharCode(code));
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
/** Arbitrary header text: ASCII and obs-text, or any Unicode as its UTF-8 bytes. */
export const headerText = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(latin1),
);

const MEDIA_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json ;charset=latin1',
  'application/json;',
  'application/jsonx',
  'application/json-rpc',
  'text/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '*/*',
  '',
  ' application/json',
];
const ACCEPTS = [
  'application/json, text/event-stream',
  'text/event-stream, application/json',
  'application/json;q=0.1, text/event-stream;q=0.9',
  'application/json',
  'text/event-stream',
  '*/*',
  'text/html',
  '',
  'APPLICATION/JSON, TEXT/EVENT-STREAM',
];
const VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
  '2025-13-01',
  '1999-01-01',
  'latest',
  '',
  ' 2025-06-18',
  '2025-06-18, 2025-03-26',
];
const ORIGINS = [
  'https://agent.example',
  'https://evil.example',
  'null',
  'http://localhost',
  'file://',
  'https://agent.example.evil.example',
  'https://AGENT.example',
];

/** Mostly a correct header, sometimes a near miss, sometimes junk (weights keep most requests deep). */
const mostly = (correct: string, variants: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(correct), weight: 12 },
    { arbitrary: fc.constantFrom(...variants), weight: 2 },
    { arbitrary: headerText, weight: 1 },
  );

const optional = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary, weight: 1 });

/** Headers other than the API key: Content-Type, Accept, MCP-Protocol-Version, Origin, a stray one. */
const plainHeaders = fc
  .record({
    'content-type': fc.oneof(
      { arbitrary: mostly('application/json', MEDIA_TYPES), weight: 12 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    accept: fc.oneof(
      { arbitrary: mostly('application/json, text/event-stream', ACCEPTS), weight: 12 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    'mcp-protocol-version': optional(fc.oneof(fc.constantFrom(...VERSIONS), headerText)),
    origin: optional(fc.oneof(fc.constantFrom(...ORIGINS), headerText)),
    extra: optional(
      fc.tuple(
        fc.constantFrom(
          'x-forwarded-for',
          'x-forwarded-proto',
          'mcp-session-id',
          'last-event-id',
          'content-encoding',
          'x-request-id',
          'cookie',
        ),
        headerText,
      ),
    ),
  })
  .map(({ extra, ...named }) => {
    const headers: HeaderMap = {};
    for (const [name, value] of Object.entries(named)) if (value !== undefined) headers[name] = value;
    if (extra) headers[extra[0]] = extra[1];
    return headers;
  });

// ─── API keys ────────────────────────────────────────────────────────────────────────────────────

const BASE62_CHARS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
/** Well-formed keys (right shape, right checksum) that were never issued. */
export const unknownKey = fc
  .string({ unit: fc.constantFrom(...BASE62_CHARS), minLength: 32, maxLength: 32 })
  .map(keyWithBody);

/** A real key spoiled: wrong prefix, length, characters, checksum, case, or surrounding junk. */
const malformedFrom = (key: string) =>
  fc.oneof(
    fc.nat({ max: key.length - 1 }).map((n) => key.slice(0, n)),
    fc
      .tuple(fc.nat({ max: key.length - 1 }), fc.constantFrom(...BASE62_CHARS, '!', '-', 'é', ' '))
      .map(([i, c]) => key.slice(0, i) + (key[i] === c ? '0' : c) + key.slice(i + 1)),
    fc.constantFrom('sk_', 'CF_', 'cf-', '').map((prefix) => prefix + key.slice(3)),
    fc.constant(key.toUpperCase()),
    fc.constant(`${key}${key.slice(-1)}`),
    fc.constantFrom('"', "'", '<', '%20').map((q) => `${q}${key}${q}`),
    fc.constant(latin1(`${key}\u200b`)),
    headerText,
  );

type KeyChoice = { kind: 'pro' | 'free' | 'disabled' | 'unknown' | 'malformed'; key: string };

const keyChoice = (keys: FuzzKeys): fc.Arbitrary<KeyChoice> =>
  fc.oneof(
    { arbitrary: fc.constant({ kind: 'pro' as const, key: keys.pro }), weight: 5 },
    { arbitrary: fc.constant({ kind: 'free' as const, key: keys.free }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'disabled' as const, key: keys.disabled }), weight: 1 },
    { arbitrary: unknownKey.map((key) => ({ kind: 'unknown' as const, key })), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(keys.pro, keys.free)
        .chain(malformedFrom)
        .map((key) => ({ kind: 'malformed' as const, key })),
      weight: 2,
    },
  );

const fixed = (headers: HeaderMap) => fc.constant(headers);

/** How a key is put into headers: the accepted forms, and the refused ones (bad scheme, two keys, …). */
const placements = (key: string, other: string): fc.Arbitrary<HeaderMap> =>
  fc.oneof(
    { arbitrary: fixed({ authorization: `Bearer ${key}` }), weight: 6 },
    { arbitrary: fixed({ 'x-api-key': key }), weight: 3 },
    {
      arbitrary: fc
        .constantFrom(`bearer   ${key}  `, `BEARER\t${key}`, ` Bearer ${key}`)
        .map((authorization) => ({ authorization })),
      weight: 1,
    },
    { arbitrary: fixed({ authorization: `Bearer ${key}`, 'x-api-key': ` ${key}\t` }), weight: 1 },
    { arbitrary: fixed({ authorization: `Bearer ${key}`, 'x-api-key': other }), weight: 1 },
    { arbitrary: fixed({ authorization: `Bearer ${other}`, 'x-api-key': key }), weight: 1 },
    { arbitrary: fixed({ 'x-api-key': [key, other] }), weight: 1 },
    { arbitrary: fixed({ authorization: [`Bearer ${key}`, `Bearer ${other}`] }), weight: 1 },
    { arbitrary: fixed({ 'x-api-key': [key, key] }), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(
          `Basic ${key}`,
          `Token ${key}`,
          `Bearer ${key} ${key}`,
          `Bearer`,
          key,
          `Bearer: ${key}`,
          `Bearer "${key}"`,
          `Bearer ${key},`,
          `Bearer=${key}`,
        )
        .map((authorization) => ({ authorization })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('Bearer ', 'Basic ', ''), headerText)
        .map(([scheme, text]) => ({ authorization: scheme + text })),
      weight: 1,
    },
    { arbitrary: headerText.map((text) => ({ 'x-api-key': text, authorization: `Bearer ${key}` })), weight: 1 },
  );

/** No key at all (a third of the time), or some key in some placement. */
const credentialHeaders = (keys: FuzzKeys): fc.Arbitrary<HeaderMap> =>
  fc.oneof(
    { arbitrary: fc.constant({}), weight: 1 },
    {
      arbitrary: fc.tuple(keyChoice(keys), keyChoice(keys)).chain(([main, other]) => placements(main.key, other.key)),
      weight: 2,
    },
  );

// ─── JSON-RPC messages ───────────────────────────────────────────────────────────────────────────

const METHODS = [
  'initialize',
  'notifications/initialized',
  'tools/list',
  'tools/call',
  'ping',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'logging/setLevel',
  'notifications/cancelled',
  'notifications/progress',
  'sampling/createMessage',
  'roots/list',
  'TOOLS/CALL',
  'tools/call ',
  'tools/',
  '',
  ...PROTOTYPE_NAMES,
];
const method = fc.oneof(
  { arbitrary: fc.constantFrom(...METHODS), weight: 6 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
);

const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  fc.double(),
  rawNumbers,
  fc.constantFrom(2 ** 53 + 1, -0, 0, 1e308),
  fc.boolean(),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant([]),
);

const jsonrpcVersion = fc.oneof(
  { arbitrary: fc.constant('2.0'), weight: 8 },
  { arbitrary: fc.constantFrom<unknown>('2', '1.0', '2.0 ', 2, 2.0, null, ['2.0'], { v: '2.0' }), weight: 1 },
);

const toolName = (names: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...names), weight: 6 },
    {
      arbitrary: fc.constantFrom<unknown>(
        ...PROTOTYPE_NAMES,
        '',
        ' ',
        'service_',
        'SERVICE_QUERY_COMPOUND',
        'service_query_compound\u0000',
        42,
        null,
        ['service_query_compound'],
        { name: 'x' },
      ),
      weight: 2,
    },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
    // Recorded as unknown_tool, never as sent (the fuzz test checks each call-log row).
    {
      arbitrary: fc.constantFrom(
        'x'.repeat(5000),
        keyWithBody('S'.repeat(32)),
        `service_query_compound ${keyWithBody('T'.repeat(32))}`,
        'evil\u0000\r\n{"level":"error"}',
      ),
      weight: 1,
    },
  );

const params = (names: readonly string[]) =>
  fc.oneof(
    fc.constant({}),
    fc.record(
      {
        name: toolName(names),
        arguments: fc.oneof(
          fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        protocolVersion: fc.oneof(fc.constantFrom(...VERSIONS), fc.jsonValue({ maxDepth: 1 })),
        capabilities: fc.jsonValue({ maxDepth: 2 }),
        clientInfo: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    ),
    fc.record({ cursor: fc.jsonValue({ maxDepth: 1 }), _meta: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
    fc.tuple(prototypeName, pollution).map(([name, value]) => withOwn({}, name, value)),
    fc.jsonValue({ maxDepth: 3 }),
    rawNumbers,
  );

/**
 * JSON-RPC-shaped objects: mostly well-formed requests and notifications (so the methods behind the key
 * check are reached), otherwise any field missing, of the wrong type, at an edge, or a stray member.
 */
export const jsonRpcMessage = (names: readonly string[]) =>
  fc.oneof({ arbitrary: wellFormedMessage(names), weight: 3 }, { arbitrary: chaoticMessage(names), weight: 2 });

const wellFormedMessage = (names: readonly string[]) =>
  fc.record(
    {
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
      method,
      params: params(names),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  );

const chaoticMessage = (names: readonly string[]) =>
  fc.record(
    {
      jsonrpc: jsonrpcVersion,
      id,
      method: fc.oneof({ arbitrary: method, weight: 9 }, { arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 1 }),
      params: params(names),
      result: fc.jsonValue({ maxDepth: 1 }),
      error: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );

// ─── Tool arguments from input schemas ───────────────────────────────────────────────────────────

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface ToolListing {
  name: string;
  inputSchema: JsonSchema;
}

const COMPOUNDS = [
  'water',
  'ethanol',
  'n-butane',
  '乙醇',
  '64-17-5',
  'CO2',
  'CCO',
  'methane',
  'benzene',
  'acetone',
  'nitrogen',
  'LFQSCWFLJHTTHZ-UHFFFAOYSA-N',
  'unobtainium',
  'C4H10',
  'chloro',
];
const SMILES = [
  'CCO',
  'c1ccccc1',
  'CC(=O)Oc1ccccc1C(=O)O',
  '[Na+].[Cl-]',
  'C1CC1',
  'O',
  'CC(C)=O',
  'C(=O)(O)O',
  '[U]',
  'C1=CC=CC=C1C(',
  'c1cccc1',
  '[C@@H](F)(Cl)Br',
  'C'.repeat(200),
  '*',
  '[2H]O[2H]',
];
const FORMULAS = [
  'C6H12O6',
  'Ca(OH)2',
  'K4[Fe(CN)6]',
  'CuSO4·5H2O',
  'CuSO4.5H2O',
  'CaSO4·0.5H2O',
  'SO4^2-',
  'NH4+',
  '[Fe(CN)6]3-',
  'H₂O',
  'Xx2',
  'C999999999H2',
  '((((H))))',
  'H0',
  ')(',
  'C1.5H3',
];
const UNITS = [
  'K',
  '°C',
  'C',
  'degC',
  '°F',
  'F',
  'R',
  'Pa',
  'kPa',
  'MPa',
  'bar',
  'mbar',
  'atm',
  'psi',
  'mmHg',
  'torr',
  'kJ/mol',
  'J/(mol·K)',
  'g/cm3',
  'L/mol',
  'cP',
  'furlong',
  'k',
];

/** Realistic values by argument name, so most calls run deep into the tools instead of failing validation. */
const REALISTIC: Record<string, readonly string[]> = {
  compound_name: COMPOUNDS,
  query: COMPOUNDS,
  smiles: SMILES,
  formula: FORMULAS,
  unit: UNITS,
  from_unit: UNITS,
  to_unit: UNITS,
  temperature_unit: UNITS,
  pressure_unit: UNITS,
};

function stringFor(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  const any = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 50, 60) });
  const realistic = REALISTIC[name];
  return realistic
    ? fc.oneof({ arbitrary: fc.constantFrom(...realistic), weight: 4 }, { arbitrary: any, weight: 1 })
    : any;
}

function numberFor(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
  const max = schema.maximum ?? 2000;
  return fc.oneof(
    { arbitrary: fc.double({ min, max, noNaN: true }), weight: 4 },
    { arbitrary: fc.constantFrom(0, 1, 273.15, 298.15, 373.15, 101325, 1e5, 0.5, -40), weight: 2 },
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  );
}

/** Values that satisfy `schema` (mostly: realistic strings may still name no compound or unit). */
function valueFor(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringFor(name, schema);
    case 'number':
      return numberFor(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 6),
      });
    case 'object':
      return objectFor(schema);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, valueFor(property, name)]),
  );
  return fc.record(shape, { requiredKeys: schema.required ?? [] });
}

/** A two-compound mixture whose fractions sum to 1, which random fractions almost never do. */
const mixtureComponents = fc
  .tuple(fc.constantFrom(...COMPOUNDS), fc.constantFrom(...COMPOUNDS), fc.double({ min: 0.01, max: 0.99, noNaN: true }))
  .map(([a, b, x]) => [
    { compound_name: a, mole_fraction: x },
    { compound_name: b, mole_fraction: 1 - x },
  ]);

function validArguments(tool: ToolListing): fc.Arbitrary<Record<string, unknown>> {
  const generic = objectFor(tool.inputSchema);
  if (!tool.inputSchema.properties?.components) return generic;
  return fc.oneof(
    generic,
    fc.tuple(generic, mixtureComponents).map(([args, components]) => ({ ...args, components })),
  );
}

const wrongValue = fc.oneof(
  fc.constantFrom<unknown>(
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '0x1F',
    ' 42 ',
    '',
    '4,2',
    'null',
    'true',
    '[]',
    '{}',
    '298.15 K',
  ),
  rawNumbers,
  fc.constantFrom<unknown>(
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 1,
    -(2 ** 53) - 1,
    0,
    -0,
    null,
    true,
    false,
    [],
    {},
    [1, 2],
    { value: 1 },
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '🧪'.repeat(100),
    'a'.repeat(501),
    '\ud800',
    'Robert\'); DROP TABLE "CallLog";--',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: '${7*7}' is a template-injection probe, meant literally
    '${7*7}',
    '../../etc/passwd',
    '<script>alert(1)</script>',
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Valid arguments broken one way: a property dropped, mistyped, stretched, added, or a prototype name. */
function hostileArguments(tool: ToolListing): fc.Arbitrary<unknown> {
  const names = Object.keys(tool.inputSchema.properties ?? {});
  const valid = validArguments(tool);
  return fc.oneof(
    fc.tuple(valid, fc.constantFrom(...names), wrongValue).map(([args, name, value]) => ({ ...args, [name]: value })),
    fc.tuple(valid, fc.constantFrom(...names)).map(([args, name]) => {
      const copy = { ...args };
      delete copy[name];
      return copy;
    }),
    fc
      .tuple(valid, fc.string({ maxLength: 20 }), wrongValue)
      .map(([args, name, value]) => withOwn({ ...args }, name, value)),
    fc.tuple(valid, prototypeName, pollution).map(([args, name, value]) => withOwn({ ...args }, name, value)),
    fc
      .tuple(valid, fc.constantFrom(...names), prototypeName, pollution)
      .map(([args, name, inner, value]) => ({ ...args, [name]: withOwn({}, inner, value) })),
    fc.constantFrom<unknown>([], 'arguments', 42, null, true, [{ compound_name: 'water' }]),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** The edges of the double range: the largest doubles, the smallest subnormal, and their negatives. */
export const EXTREME_NUMBERS = [
  1e308, -1e308, 1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324,
] as const;

/** The same value with its numbers replaced by `to` where `replace(n)` says so (n: the number's place in walk order). */
function replaceNumbers(value: unknown, to: number, replace: (n: number) => boolean, seen = { count: 0 }): unknown {
  if (typeof value === 'number') return replace(seen.count++) ? to : value;
  if (Array.isArray(value)) return value.map((item) => replaceNumbers(item, to, replace, seen));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, replaceNumbers(item, to, replace, seen)]),
    );
  }
  return value;
}

/**
 * Valid arguments for the tool with its numbers pushed to the edges of the double range: one of its
 * numbers (wherever it sits: nested objects and arrays too), or all of them at once.
 */
export const extremeArguments = (tool: ToolListing): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      validArguments(tool),
      fc.constantFrom(...EXTREME_NUMBERS),
      fc.option(fc.nat({ max: 20 }), { nil: undefined }),
    )
    .map(([args, extreme, which]) => {
      const seen = { count: 0 };
      replaceNumbers(args, 0, () => false, seen);
      const all = which === undefined || seen.count === 0;
      return replaceNumbers(args, extreme, (n) => all || n === which % seen.count) as Record<string, unknown>;
    });

// ─── Bodies ──────────────────────────────────────────────────────────────────────────────────────

/** `[[[…]]]` or `{"a":{"a":…}}` inside an otherwise valid message, `depth` levels deep. */
const deepNesting = fc
  .tuple(
    fc.integer({ min: 100, max: 3000 }),
    fc.constantFrom('array', 'object'),
    fc.constantFrom('bare', 'params', 'arguments', 'id', 'meta'),
  )
  .map(([depth, kind, where]) => {
    const nested =
      kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    switch (where) {
      case 'bare':
        return nested;
      case 'params':
        return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${nested}}`;
      case 'arguments':
        return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_query_compound","arguments":{"compound_name":${nested}}}}`;
      case 'id':
        return `{"jsonrpc":"2.0","id":${nested},"method":"tools/call","params":{"name":"service_query_compound","arguments":{"compound_name":"water"}}}`;
      default:
        return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${nested}}}`;
    }
  });

/**
 * A tools/call whose body is `limit + delta` bytes, padded with a character of 1 to 4 UTF-8 bytes, so
 * the size check is exercised on both sides of the limit and on bytes, not characters.
 */
const sizedBody = (limit: number) =>
  fc
    .tuple(
      fc.integer({ min: -48, max: 48 }),
      fc.constantFrom('a', 'é', '€', '🧪'),
      fc.constantFrom('tools/call', 'tools/list', 'initialize'),
    )
    .map(([delta, fill, methodName]) => {
      const shell = (padding: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"${methodName}","params":{"name":"service_formula_info","arguments":{"formula":"H2O"},"_meta":{"pad":"${padding}"}}}`;
      const target = limit + delta;
      const missing = target - Buffer.byteLength(shell(''));
      const fillBytes = Buffer.byteLength(fill);
      return shell(fill.repeat(Math.floor(missing / fillBytes)) + 'a'.repeat(missing % fillBytes));
    });

const duplicateKeys = fc.constantFrom(
  '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"service_formula_info","arguments":{"formula":"H2O"}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_formula_info","arguments":{"formula":"H2O"}},"params":{}}',
  '{"jsonrpc":"2.0","id":1,"id":null,"method":"ping"}',
  '{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"ping"}',
);

/** Everything a body can be, from random bytes to a nearly valid JSON-RPC message. */
const body = (names: readonly string[], limit: number): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    { arbitrary: fc.uint8Array({ maxLength: 300 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '\n',
        'null',
        '0',
        '"x"',
        'true',
        '[]',
        '{}',
        '{',
        '{"jsonrpc":"2.0"',
        '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"method":"ping"}\u0000',
      ),
      weight: 2,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map(toJsonText), weight: 2 },
    { arbitrary: jsonRpcMessage(names).map(toJsonText), weight: 10 },
    { arbitrary: fc.array(jsonRpcMessage(names), { maxLength: 4 }).map(toJsonText), weight: 2 },
    { arbitrary: deepNesting, weight: 1 },
    { arbitrary: sizedBody(limit), weight: 2 },
    { arbitrary: duplicateKeys, weight: 1 },
  );

const requestShape = fc.record({
  method: fc.oneof(
    { arbitrary: fc.constant('POST'), weight: 30 },
    { arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), weight: 1 },
  ),
  path: fc.oneof(
    { arbitrary: fc.constant('/mcp'), weight: 20 },
    { arbitrary: fc.constantFrom('/mcp?', '/mcp?session=1&x=%00', '/mcp#frag'), weight: 1 },
  ),
  contentLength: fc.boolean(),
});

/** Any request at all: hostile headers, credentials and body together. */
export const hostileRequest = (keys: FuzzKeys, names: readonly string[], limit: number): fc.Arbitrary<FuzzRequest> =>
  fc
    .tuple(requestShape, plainHeaders, credentialHeaders(keys), body(names, limit))
    .map(([shape, plain, credentials, content]) => ({
      ...shape,
      headers: { ...plain, ...credentials },
      body: content,
    }));

/**
 * A tools/call of one of the tools, with valid (2/3) or hostile (1/3) arguments, mostly with a valid
 * key and well-formed headers, so most of these reach the tools themselves.
 */
export const toolCallRequest = (keys: FuzzKeys, tools: readonly ToolListing[]): fc.Arbitrary<FuzzRequest> =>
  fc.constantFrom(...tools).chain((tool) =>
    fc
      .tuple(
        fc.oneof(
          { arbitrary: validArguments(tool) as fc.Arbitrary<unknown>, weight: 2 },
          { arbitrary: hostileArguments(tool), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.constant<HeaderMap>({ authorization: `Bearer ${keys.pro}` }), weight: 8 },
          { arbitrary: credentialHeaders(keys), weight: 2 },
        ),
        fc.oneof({ arbitrary: fc.integer(), weight: 3 }, { arbitrary: fc.string({ maxLength: 10 }), weight: 1 }),
        fc.boolean(),
      )
      .map(([args, credentials, requestId, contentLength]) => ({
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...credentials },
        body: toJsonText({
          jsonrpc: '2.0',
          id: requestId,
          method: 'tools/call',
          params: { name: tool.name, arguments: args },
        }),
        contentLength,
      })),
  );
