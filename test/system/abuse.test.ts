/**
 * The standing abuse suite: the attacks an outsider with a free account found in an
 * afternoon, sent on every `npm test` to the production server on a fresh SQLite file.
 *
 * It sends oversized and hostile tool names and arguments through a free key with raised limits and
 * an ordinary free key; reissues a key after its quota is used up, repeatedly; tries tricky `next`
 * and `callbackUrl` values on every sign-in path; disables keys with the operator CLI while /mcp takes
 * calls as fast as four keep-alive loops can send them; sends invalid UTF-8; puts secrets in every
 * free-text field (tool name and arguments, JSON-RPC id, method and member names, headers, the leak
 * report's source, key names and disable reasons, the sign-up name, the upgrade request, the support
 * search); sends a foreign Host, a foreign-Origin server action and a tool call that overflows; and
 * posts, to every path the build and server.ts serve, a body over its cap (declared, and chunked), a
 * body that trickles, and a 50 MB form to the Auth.js routes.
 *
 * Each attack is checked where it lands, and at the end: the server is still up (the same answer to
 * a reference call as at the start, the process alive, no 500 to any request, no stack frame, source
 * path or SQL in an /mcp answer, nothing logged as an error); storage stayed bounded (the database
 * and the text it holds grew by at most a bound per request, no stored tool label is the caller's
 * text, the key pages and usage JSON stay under 200 KB); and no secret fragment
 * (containsSecretFragment) is in any answer, Location, server output line or text column, except
 * where a secret is shown on purpose: the answer that issues a key, the JSON-RPC id a caller chose
 * (the protocol makes the answer repeat it) and the first-start banner.
 */
// test-isolation: process (it points KEY_HASH_SECRET_FILE at its server's secret, which lib/keys/hash.ts reads once per process)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { CLI_ACTOR } from '../../lib/audit/write.ts';
import { createUser } from '../../lib/auth/users.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { bodyCapFor, sizeText } from '../../lib/http/body-caps.ts';
import { KEY_PATTERN } from '../../lib/keys/format.ts';
import { issueKey, MAX_LIMIT } from '../../lib/keys/store.ts';
import {
  AnswerLedger,
  callLoad,
  type LoadTally,
  linesWithSecrets,
  outputWithoutBanner,
  rawGet,
  returnPathProblem,
  type StorageSnapshot,
  storageSnapshot,
  storedSecretFragments,
} from '../support/abuse-checks.ts';
import { type ProbeAnswer, probe } from '../support/body-probes.ts';
import { runCliInProcessAsync } from '../support/cli-in-process.ts';
import type { ListedTool } from '../support/mcp-answers.ts';
import { MCP_HEADERS } from '../support/mcp-client.ts';
import { internalsPatterns } from '../support/mcp-fuzz-checks.ts';
import { fuzzAgent, type RawAnswer, sendRaw } from '../support/raw-http.ts';
import { servedPaths } from '../support/served-paths.ts';
import { ROOT, startTestServer, type TestServer } from '../support/test-server.ts';
import type { SchemaNode } from '../support/tool-schemas.ts';
import {
  CookieJar,
  callServerAction,
  csrfToken,
  formOf,
  serverActionIds,
  signInWithForm,
  type WebAnswer,
  webRequest,
} from '../support/web-client.ts';

/** Raised from the 1 MiB default, so a tool name can be 2 MB. */
const BODY_LIMIT = 2 * 1024 * 1024;
/** The largest size a key page, a support key page or a usage JSON may have, whatever the key was sent. */
const PAGE_LIMIT = 200 * 1024;
/**
 * Storage per request: a call-log row with its indexes and daily-total rows take a few hundred bytes,
 * an audit event under a kilobyte (on today's code, the oversized names aside, ~90 characters and ~250
 * bytes a request). The bounds are several times that, and far below what storing one oversized name
 * costs: a 2 MB name is stored three times (the call log, the daily totals and their primary key).
 */
const TEXT_PER_REQUEST = 1024;
const BYTES_PER_REQUEST = 4096;
/** SQLite grows in pages and B-tree splits: a constant allowance on top of the per-request bound. */
const BYTES_SLACK = 512 * 1024;
const TEXT_SLACK = 16 * 1024;
const DEV = { email: 'abuse-dev@example.test', password: 'a long abuse suite password' };
const EVIL = 'https://evil.example';

let server: TestServer;
let db: Db;
let sqlite: Database.Database;
let actions: Map<string, string>;
let internals: RegExp[];
let catalogue: string[];
const ledger = new AnswerLedger();
/** Requests sent to /mcp and portal or CLI writes, for the storage bounds. */
const sent = { mcp: 0, writes: 0 };
/** CLI output that is not a secret's issue answer, checked for secrets at the end. */
const cliOutput: string[] = [];
let raised: { id: string; secret: string };
let ordinary: { id: string; secret: string };
/** A live key's secret, planted in every free-text field. */
let planted: string;
let devJar: CookieJar;
let adminJar: CookieJar;
let referenceAnswer: string;
let start: StorageSnapshot;

/** Every secret issued so far; a secret in an answer that is not one of these was issued by that answer. */
const issued = new Set<string>();

async function issue(name: string, options: { dailyQuota?: number; ratePerSecond?: number } = {}) {
  const owner = await db.user.findUniqueOrThrow({ where: { email: DEV.email } });
  const { key, secret } = await issueKey(
    db,
    { ownerId: owner.id, name, tierId: 'free', dailyQuota: options.dailyQuota, ratePerSecond: options.ratePerSecond },
    CLI_ACTOR,
  );
  issued.add(secret);
  return { id: key.id, secret };
}

/** The secret fragments an attacker or a careless agent would send. */
const secretVariants = (secret: string) => [
  secret,
  `Bearer ${secret}`,
  `${secret}x`,
  secret.slice(0, 12),
  `see ${secret.slice(0, 20)} here`,
  `prefix-${secret}-suffix`,
];

/** A JSON-RPC message as far as these checks read it; in a hostile exchange any part may be missing. */
interface RpcMessage {
  result?: { isError?: boolean; content?: { text?: string }[]; tools?: ListedTool[] };
  error?: { code?: number };
}

/** The JSON-RPC message of an SSE answer, or undefined. */
function rpcOf(answer: { text: string }): RpcMessage | undefined {
  const data = answer.text.split('\n').find((line) => line.startsWith('data:'));
  try {
    return data ? JSON.parse(data.slice(5)) : undefined;
  } catch {
    return undefined;
  }
}

/** The error code of a tool result (isError with a JSON text), or undefined. */
function toolErrorOf(answer: RawAnswer): string | undefined {
  const result = rpcOf(answer)?.result;
  if (result?.isError !== true) return undefined;
  try {
    return JSON.parse(result.content?.[0]?.text ?? '').error;
  } catch {
    return 'a tool error whose text is not JSON';
  }
}

/** /mcp answers that showed internals (a stack frame, a source path, SQL) the request did not hold itself. */
const internalsShown: string[] = [];

/** Sends one /mcp request, bytes exactly as given, and keeps its answer in the ledger. */
async function mcp(
  what: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  allowed: string[] = [],
): Promise<RawAnswer> {
  sent.mcp++;
  const answer = await sendRaw(server.baseUrl, {
    method: 'POST',
    path: '/mcp',
    headers: { ...MCP_HEADERS, ...headers },
    body,
    contentLength: true,
  });
  ledger.record(`/mcp ${what}`, answer.status, answer.text, { allowed });
  const echoed = `${typeof body === 'string' ? body : Buffer.from(body).toString('utf8')}\n${Object.values(headers).join('\n')}`;
  for (const pattern of internals) {
    const match = pattern.exec(answer.text);
    if (match && !echoed.includes(match[0]))
      internalsShown.push(`/mcp ${what}: ${answer.status} shows ${JSON.stringify(match[0].slice(0, 120))}`);
  }
  return answer;
}

/** The start of an answer on one line: an SSE answer's JSON-RPC message, or the body. */
function gist(text: string, length: number): string {
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  return (data ? data.slice(5) : text).replace(/\s+/g, ' ').trim().slice(0, length);
}

const short = (text: string) =>
  JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}… (${text.length} characters)` : text);
const callBody = (name: string, args: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A portal page or route as the jar's user, kept in the ledger. */
async function page(what: string, path: string, jar?: CookieJar): Promise<WebAnswer> {
  const answer = await webRequest(server.baseUrl + path, { headers: jar ? { cookie: jar.header() } : {} });
  ledger.record(what, answer.status, answer.text, { location: answer.headers.location });
  return answer;
}

/**
 * A server action as the browser calls it; the answer (and its redirect) is kept in the ledger. An
 * action that issues a key (`issuesKey`) shows the new secret on purpose: only that secret is allowed.
 */
async function action(
  what: string,
  pagePath: string,
  name: string,
  args: unknown[],
  jar?: CookieJar,
  options: { origin?: string; issuesKey?: boolean } = {},
): Promise<WebAnswer> {
  const actionId = actions.get(name);
  assert.ok(actionId, `${name} is in the build's server actions`);
  sent.writes++;
  const answer = await callServerAction(server.baseUrl, {
    page: pagePath,
    actionId,
    args,
    jar,
    origin: options.origin,
  });
  const newSecrets = options.issuesKey
    ? (answer.text.match(KEY_PATTERN) ?? []).filter((secret) => !issued.has(secret))
    : [];
  ledger.record(what, answer.status, answer.text, {
    location: String(answer.headers['x-action-redirect'] ?? answer.headers.location ?? ''),
    allowed: newSecrets,
  });
  return answer;
}

/** Fails with every problem on its own line (an assertion diff would cut the middle of a long list). */
function assertNone(problems: string[], what: string): void {
  assert.ok(problems.length === 0, `${what} (${problems.length}):\n  ${problems.join('\n  ')}`);
}

function storageProblems(from: StorageSnapshot, to: StorageSnapshot, requests: number, what: string): string[] {
  const problems: string[] = [];
  const textBound = TEXT_PER_REQUEST * requests + TEXT_SLACK;
  const bytesBound = BYTES_PER_REQUEST * requests + BYTES_SLACK;
  if (to.textLength - from.textLength > textBound) {
    problems.push(
      `${what}: the text stored grew by ${to.textLength - from.textLength} characters for ${requests} requests (bound ${textBound})`,
    );
  }
  if (to.bytes - from.bytes > bytesBound)
    problems.push(
      `${what}: the database grew by ${to.bytes - from.bytes} bytes for ${requests} requests (bound ${bytesBound})`,
    );
  return problems;
}

before(async () => {
  server = await startTestServer({ MCP_MAX_BODY_BYTES: String(BODY_LIMIT), LOG_LEVEL: 'info' });
  // The key store in this process hashes secrets the way the server does: with its key-hash secret.
  process.env.KEY_HASH_SECRET_FILE = server.env.KEY_HASH_SECRET_FILE;
  db = createDb(server.env.DATABASE_URL);
  sqlite = new Database(sqliteFilePath(server.env.DATABASE_URL!), { readonly: true, fileMustExist: true });
  actions = serverActionIds();
  internals = internalsPatterns([ROOT, server.dataDir]);
  await createUser(db, DEV, CLI_ACTOR);
  raised = await issue('abuse: raised limits', { dailyQuota: MAX_LIMIT, ratePerSecond: MAX_LIMIT });
  ordinary = await issue('abuse: ordinary free');
  planted = (await issue('abuse: planted secret')).secret;
  devJar = (await signInWithForm(server.baseUrl, DEV.email, DEV.password)).jar;
  adminJar = (await signInWithForm(server.baseUrl, server.adminEmail, server.adminPassword!)).jar;
  const tools = rpcOf(await mcp('tools/list', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })))?.result
    ?.tools;
  assert.ok(tools, 'tools/list answers the catalogue');
  catalogue = tools.map((tool) => tool.name);
  referenceAnswer = (
    await mcp('reference call', callBody('service_vapor_pressure', { compound_name: 'ethanol', temperature: 300 }), {
      authorization: `Bearer ${raised.secret}`,
    })
  ).text;
  start = storageSnapshot(sqlite);
});

after(async () => {
  sqlite?.close();
  await db?.$disconnect();
  fuzzAgent.destroy();
  await server?.stop();
});

describe('hostile tool names and arguments', () => {
  const hostileNames = () => [
    'x'.repeat(BODY_LIMIT - 200),
    '🧪'.repeat(250_000),
    'tool\u0000name',
    '\u0000',
    '\u0001\u0002\u001b[31mred\u001b[0m',
    'name\r\nX-Injected: yes',
    '\u007f\u0085\u2028\u2029',
    '\u202eloot_yreuq_ecivres',
    '\u200fservice_query_compound',
    '\ufeffservice_query_compound',
    '\ud800',
    '\udfff\ud800',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: '{{7*7}}${7*7}' is a template-injection probe, meant literally
    '{{7*7}}${7*7}',
    `service_query_compound'; DROP TABLE "CallLog"; --`,
    `' OR '1'='1`,
    'unknown_tool" OR 1=1 --',
    '../../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '/mcp?x=1#y',
    'file:///etc/passwd',
    '%2e%2e%2f',
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'toString',
    'SERVICE_QUERY_COMPOUND',
    ' service_query_compound',
    'service_query_compound ',
    'service_query_compound\u0000',
    'unknown_tool',
    ...secretVariants(planted),
  ];

  it('an unknown tool name, however long or strange, is an unknown_tool result through either free key; only that label is stored, and no secret is echoed', async () => {
    const before = storageSnapshot(sqlite);
    const requestsBefore = sent.mcp;
    const since = ledger.count;
    const problems: string[] = [];
    for (const name of hostileNames()) {
      for (const [which, key] of [
        ['raised', raised],
        ['ordinary', ordinary],
      ] as const) {
        const answer = await mcp(`tools/call named ${short(name)} (${which} key)`, callBody(name, {}), {
          authorization: `Bearer ${key.secret}`,
        });
        const code = toolErrorOf(answer);
        // A precise refusal (invalid params, or a 400 with an error code) would do no harm either.
        const refused =
          (answer.status === 200 && rpcOf(answer)?.error?.code === -32602) ||
          (answer.status === 400 && /^\{"error":"[a-z_]+"/.test(answer.text));
        const fine =
          (answer.status === 200 && code === 'unknown_tool') ||
          refused ||
          (which === 'ordinary' && answer.status === 429);
        if (!fine)
          problems.push(
            `${short(name)} (${which} key): ${answer.status} ${code ?? gist(answer.text, 120)}, expected an unknown_tool result${which === 'ordinary' ? ' or a 429' : ''}`,
          );
      }
    }
    const labels = sqlite
      .prepare('SELECT tool FROM "CallLog" UNION SELECT tool FROM "DailyUsage"')
      .pluck()
      .all() as string[];
    for (const label of labels.filter((l) => l !== 'unknown_tool' && !catalogue.includes(l)))
      problems.push(`a stored tool label is the caller's text: ${short(label)}`);
    problems.push(
      ...storageProblems(before, storageSnapshot(sqlite), sent.mcp - requestsBefore, 'after the hostile names'),
      ...ledger.secretEchoes(since),
    );
    assertNone(problems, 'unknown tool names answered wrongly, stored as sent or echoed with a secret');
  });

  it('hostile arguments to every tool are answered as tool results, never a crash, and never echo a secret', async () => {
    const problems: string[] = [];
    const since = ledger.count;
    const stringsAs = (schema: SchemaNode, value: () => unknown) =>
      Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [
          name,
          property.type === 'string' ? value() : property.type === 'number' ? 1e308 : value(),
        ]),
      );
    const tools = rpcOf(await mcp('tools/list', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })))
      ?.result?.tools;
    assert.ok(tools, 'tools/list answers the catalogue');
    for (const tool of tools) {
      const variants: [string, unknown][] = [
        ['a secret in every field', stringsAs(tool.inputSchema, () => planted)],
        ['secret fragments in every field', stringsAs(tool.inputSchema, () => `water ${planted.slice(0, 16)}`)],
        ['100 KB strings', stringsAs(tool.inputSchema, () => 'C'.repeat(100_000))],
        [
          'control characters, markup and SQL',
          stringsAs(tool.inputSchema, () => '\u0000\u202e<script>alert(1)</script>\'; DROP TABLE "CallLog"; --'),
        ],
        [
          '__proto__ and constructor members',
          JSON.parse(`{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"compound_name":"${planted}"}`),
        ],
      ];
      for (const [how, args] of variants) {
        const answer = await mcp(`${tool.name} with ${how}`, callBody(tool.name, args), {
          authorization: `Bearer ${raised.secret}`,
        });
        const rpc = rpcOf(answer);
        if (answer.status !== 200 || !rpc?.result)
          problems.push(`${tool.name} with ${how}: ${answer.status} ${gist(answer.text, 160)}`);
        else if (toolErrorOf(answer) === 'internal_error')
          problems.push(`${tool.name} with ${how}: the tool crashed (internal_error)`);
      }
    }
    problems.push(...ledger.secretEchoes(since));
    assertNone(problems, 'hostile arguments not answered with a tool result, or echoed with a secret');
  });

  it('a result that overflows (1e308 atm in Pa) is a result_out_of_range tool error; an ideal gas at 1e308 K, outside every method’s range, is out_of_range', async () => {
    const problems: string[] = [];
    for (const [tool, args, expected] of [
      ['service_convert_units', { value: 1e308, from_unit: 'atm', to_unit: 'Pa' }, 'result_out_of_range'],
      ['service_ideal_gas_thermo', { compound_name: 'nitrogen', temperature: 1e308 }, 'out_of_range'],
    ] as const) {
      const answer = await mcp(`${tool} overflowing`, callBody(tool, args), {
        authorization: `Bearer ${raised.secret}`,
      });
      const code = toolErrorOf(answer);
      if (answer.status !== 200 || code !== expected)
        problems.push(
          `${tool} ${JSON.stringify(args)}: ${answer.status} ${code ? `tool error ${code}` : gist(answer.text, 200)}`,
        );
    }
    assertNone(problems, 'overflowing or out-of-range results not reported with their code');
  });
});

describe('a reissued key is the same allowance', () => {
  it('reissued after its quota is used up, by the owner or the operator, over and over: the successor gets 429 daily_quota', async () => {
    const problems: string[] = [];
    let key = await issue('abuse: reissue', { dailyQuota: 3, ratePerSecond: 1000 });
    const call = (what: string) =>
      mcp(`reissue chain: ${what}`, callBody('service_formula_info', { formula: 'H2O' }), {
        authorization: `Bearer ${key.secret}`,
      });
    const expect = async (what: string, status: number, remaining: string, reason?: string) => {
      const answer = await call(what);
      const body = answer.status === 429 ? JSON.parse(answer.text) : undefined;
      const got = `${answer.status}${body ? ` ${body.reason}` : ''}, X-RateLimit-Remaining ${answer.headers['x-ratelimit-remaining']}`;
      const wanted = `${status}${reason ? ` ${reason}` : ''}, X-RateLimit-Remaining ${remaining}`;
      if (got !== wanted) problems.push(`${what}: ${got}, expected ${wanted}`);
    };
    const viaPortal = async () => {
      const answer = await action(
        'reissue in the portal',
        `/keys/${key.id}`,
        'app/keys/actions.ts#reissueKeyAction',
        [null, formOf({ keyId: key.id })],
        devJar,
        { issuesKey: true },
      );
      const secret = answer.text.match(KEY_PATTERN)?.find((s) => !issued.has(s));
      const id = /"keyId":"([^"]+)"/.exec(answer.text)?.[1];
      assert.ok(secret && id, `the portal reissued the key: ${answer.status} ${gist(answer.text, 300)}`);
      issued.add(secret);
      return { id, secret };
    };
    const viaCli = async () => {
      sent.writes++;
      const run = await runCliInProcessAsync(server.env, ['key', 'reissue', key.id, '--json']);
      assert.equal(run.status, 0, `cli key reissue: ${run.stderr}`);
      cliOutput.push(run.stderr);
      const { id, key: secret } = JSON.parse(run.stdout);
      issued.add(secret);
      return { id: id as string, secret: secret as string };
    };

    await expect('first call', 200, '2');
    key = await viaPortal();
    await expect('the successor continues the count', 200, '1');
    await expect('the last call of the day', 200, '0');
    await expect('over quota', 429, '0', 'daily_quota');
    for (const [how, reissue] of [
      ['operator CLI', viaCli],
      ['portal', viaPortal],
      ['portal again', viaPortal],
    ] as const) {
      key = await reissue();
      await expect(`reissued through the ${how} after the quota was used up`, 429, '0', 'daily_quota');
    }
    const usage = JSON.parse(
      (await page('usage JSON of the last successor', `/api/portal/keys/${key.id}/usage`, devJar)).text,
    );
    if (usage.usedToday !== 3 || usage.remainingToday !== 0)
      problems.push(
        `the portal shows the last successor at ${usage.usedToday} used, ${usage.remainingToday} left, expected 3 used, 0 left`,
      );
    assertNone(problems, 'a reissued key got a fresh allowance');
  });
});

describe('return paths stay on the site', () => {
  // Decoded values, sent percent-encoded (so '%2F%2Fevil' arrives as typed), and raw query strings as they are.
  const tricky = [
    '/\\evil.example/',
    '/\t/evil.example',
    '//evil.example',
    'https://evil.example',
    '/\t/evil',
    '%2F%2Fevil',
    '/%5Cevil.example/',
    '\\\\evil.example',
    '/\\/evil.example',
    '///evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    'http:evil.example',
    'https:/\\evil.example',
    'javascript:alert(1)',
    ' //evil.example',
    '\t//evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    '/@evil.example',
    'http://localhost.evil.example/',
  ];
  /** Each sign-in costs a password hash: the sign-in forms get one value of each kind. */
  const throughForms = [
    '/\\evil.example/',
    '/\t/evil.example',
    '//evil.example',
    'https://evil.example',
    '%2F%2Fevil',
    '/./\\evil.example',
    '/\\/evil.example',
    'https:/\\evil.example',
    'javascript:alert(1)',
    ' //evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    'http://localhost.evil.example/',
  ];
  const rawQueries = [
    '/%5Cevil.example/',
    '/%09/evil.example',
    '//evil.example',
    'https://evil.example',
    '%2F%2Fevil',
    '/%2F/evil.example',
    '/%5C%5Cevil.example',
    '%5C%5Cevil.example',
    '/%0D%0A/evil.example',
  ];

  it('a signed-in user at /signin?next=… is sent to this site only, with no backslash or control character in Location', async () => {
    const problems: string[] = [];
    for (const query of [...tricky.map(encodeURIComponent), ...rawQueries]) {
      const answer = await rawGet(`${server.baseUrl}/signin?next=${query}`, { cookie: devJar.header() });
      ledger.record(`/signin?next=${query}`, answer.status, answer.text, { location: answer.location });
      const problem = returnPathProblem(answer.location, server.baseUrl);
      if (problem) problems.push(`next=${query}: ${answer.status} with ${problem}`);
    }
    assertNone(problems, '/signin sent a signed-in user off the site or with a bad Location');
  });

  it("signing in through the portal's form with next=…, or Auth.js's own form with callbackUrl=…, lands on this site", async () => {
    const problems: string[] = [];
    const portalForm = async (next: string) => {
      try {
        const answer = await action(
          `sign-in form with next=${JSON.stringify(next)}`,
          '/signin',
          'app/(auth)/actions.ts#signInAction',
          [null, formOf({ ...DEV, next })],
          new CookieJar(),
        );
        const redirect = answer.headers['x-action-redirect'];
        if (!redirect) problems.push(`sign-in form, next=${JSON.stringify(next)}: ${answer.status} without a redirect`);
        const problem = returnPathProblem(
          redirect === undefined ? undefined : String(redirect).replace(/;(push|replace)$/, ''),
          server.baseUrl,
        );
        if (problem) problems.push(`sign-in form, next=${JSON.stringify(next)}: ${problem}`);
      } catch (error) {
        problems.push(
          `sign-in form, next=${JSON.stringify(next)}: the answer could not be parsed (${(error as Error).message})`,
        );
      }
    };
    const authJsForm = async (next: string) => {
      try {
        const jar = new CookieJar();
        const token = await csrfToken(server.baseUrl, jar);
        sent.writes++;
        const answer = await webRequest(`${server.baseUrl}/api/auth/callback/credentials`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
          body: new URLSearchParams({ ...DEV, csrfToken: token, callbackUrl: next }).toString(),
        });
        ledger.record(`Auth.js sign-in with callbackUrl=${JSON.stringify(next)}`, answer.status, answer.text, {
          location: answer.headers.location,
        });
        const problem = returnPathProblem(answer.headers.location, server.baseUrl);
        if (problem) problems.push(`Auth.js form, callbackUrl=${JSON.stringify(next)}: ${problem}`);
      } catch (error) {
        problems.push(
          `Auth.js form, callbackUrl=${JSON.stringify(next)}: the answer could not be parsed (${(error as Error).message})`,
        );
      }
    };
    for (const next of throughForms) await Promise.all([portalForm(next), authJsForm(next)]);
    assertNone(problems, 'a sign-in form sent the user off the site or with a bad Location');
  });
});

describe('the operator CLI under full /mcp load', () => {
  it('disables keys (and creates users) while /mcp takes calls from four keep-alive loops: every run exits 0 and each key then gets 401', async () => {
    const problems: string[] = [];
    const victims = await Promise.all([1, 2, 3, 4].map((n) => issue(`abuse: victim ${n}`, { ratePerSecond: 1000 })));
    const callWith = (key: { secret: string }, what: string) =>
      mcp(what, callBody('service_formula_info', { formula: 'CO2' }), { authorization: `Bearer ${key.secret}` });
    for (const victim of victims) assert.equal((await callWith(victim, 'a victim before its disable')).status, 200);

    let loading = true;
    const startedAt = Date.now();
    const live: LoadTally = { calls: 0, statuses: {}, problems: [] };
    const load = callLoad(server.baseUrl, raised.secret, {
      loops: 4,
      running: () => loading,
      maxCalls: 40_000,
      maxMs: 90_000,
      tally: live,
    });
    // The loops are answered before the first writer starts.
    while (live.calls < 20) await sleep(20);
    const callsBeforeWrites = live.calls;
    const disable = async (victim: { secret: string }, n: number) => {
      sent.writes++;
      const run = await runCliInProcessAsync(server.env, [
        'key',
        'disable',
        victim.secret,
        '--reason',
        'abuse suite: leaked while /mcp is busy',
      ]);
      cliOutput.push(run.stdout, run.stderr);
      if (run.status !== 0)
        return void problems.push(`key disable #${n} exited ${run.status}: ${gist(run.stderr, 300)}`);
      const answer = await callWith(victim, `victim ${n} after its disable`);
      if (answer.status !== 401)
        problems.push(`victim ${n} still answered ${answer.status} after "key disable" exited 0`);
    };
    for (const [n, victim] of victims.slice(0, 2).entries()) await disable(victim, n + 1);
    // Then three writers at once: two disables and a new user.
    await Promise.all([
      disable(victims[2], 3),
      disable(victims[3], 4),
      (async () => {
        sent.writes++;
        const run = await runCliInProcessAsync(server.env, [
          'user',
          'create',
          '--email',
          'abuse-load@example.test',
          '--password',
          'a long load test password',
        ]);
        cliOutput.push(run.stdout, run.stderr);
        if (run.status !== 0) problems.push(`user create exited ${run.status}: ${gist(run.stderr, 300)}`);
      })(),
    ]);
    const callsDuringWrites = live.calls - callsBeforeWrites;
    loading = false;
    const tally = await load;
    sent.mcp += tally.calls;
    const seconds = (Date.now() - startedAt) / 1000;
    console.log(
      `abuse: ${tally.calls} calls in ${seconds.toFixed(1)} s (${Math.round(tally.calls / seconds)}/s) while the CLI ran; answers ${JSON.stringify(tally.statuses)}`,
    );
    for (const problem of tally.problems) problems.push(`a call under load: ${problem}`);
    assert.ok(callsDuringWrites >= 20, `the load was real: only ${callsDuringWrites} calls while the CLI wrote`);
    assertNone(problems, 'the operator CLI failed under /mcp load');
  });
});

describe('invalid UTF-8 and foreign hosts', () => {
  const badSequences: [string, number[]][] = [
    ['a lone continuation byte', [0x80]],
    ['a lone 0xBF', [0xbf]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an overlong 3-byte NUL', [0xe0, 0x80, 0x80]],
    ['an overlong 4-byte "/"', [0xf0, 0x80, 0x80, 0xaf]],
    ['a truncated 3-byte sequence', [0xe2, 0x82]],
    ['a truncated 4-byte sequence', [0xf0, 0x9f, 0xa7]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['0xFF', [0xff]],
    ['0xFE', [0xfe]],
  ];

  it('a body that is not valid UTF-8, wherever the bad bytes are, is a 400 parse_error and leaves no usage row', async () => {
    const problems: string[] = [];
    const rows = () => sqlite.prepare('SELECT COUNT(*) FROM "CallLog"').pluck().get() as number;
    const before = rows();
    for (const [what, bytes] of badSequences) {
      for (const [where, head, tail] of [
        [
          'in the tool name',
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_formula_info',
          '","arguments":{"formula":"H2O"}}}',
        ],
        [
          'in an argument',
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_query_compound","arguments":{"compound_name":"water',
          '"}}}',
        ],
        [
          'in the id',
          '{"jsonrpc":"2.0","id":"a',
          '","method":"tools/call","params":{"name":"service_formula_info","arguments":{"formula":"H2O"}}}',
        ],
        ['in the method of tools/list', '{"jsonrpc":"2.0","id":1,"method":"tools/list', '"}'],
        [
          'in a member name',
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_formula_info","arguments":{"formula":"H2O"},"_meta":{"x',
          '":1}}}',
        ],
      ] as const) {
        const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
        const answer = await mcp(`${what} ${where}`, body, { authorization: `Bearer ${raised.secret}` });
        let code: string | undefined;
        try {
          code = JSON.parse(answer.text).error;
        } catch {
          code = undefined;
        }
        if (answer.status !== 400 || code !== 'parse_error')
          problems.push(
            `${what} ${where}: ${answer.status} ${code ?? gist(answer.text, 120)}, expected 400 parse_error`,
          );
      }
    }
    if (rows() !== before) problems.push(`${rows() - before} usage rows were written for bodies that are not UTF-8`);
    assertNone(problems, 'bodies that are not UTF-8 were not refused with 400 parse_error');
  });

  it('/mcp refuses a Host that is not this site (403 host_not_allowed); a server action from another Origin is a 403 that changes nothing', async () => {
    const problems: string[] = [];
    const rows = () => sqlite.prepare('SELECT COUNT(*) FROM "CallLog"').pluck().get() as number;
    const before = rows();
    for (const host of [
      'evil.example',
      `evil.example:${new URL(server.baseUrl).port}`,
      'localhost.evil.example',
      `${planted}.example`,
    ]) {
      for (const [what, body] of [
        ['tools/list', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
        ['tools/call', callBody('service_formula_info', { formula: 'H2O' })],
      ]) {
        const answer = await mcp(`${what} with Host ${short(host)}`, body, {
          host,
          authorization: `Bearer ${raised.secret}`,
        });
        let code: string | undefined;
        try {
          code = JSON.parse(answer.text).error;
        } catch {
          code = undefined;
        }
        if (answer.status !== 403 || code !== 'host_not_allowed')
          problems.push(
            `${what} with Host ${short(host)}: ${answer.status} ${code ?? gist(answer.text, 100)}, expected 403 host_not_allowed`,
          );
      }
    }
    if (rows() !== before) problems.push(`${rows() - before} usage rows were written for calls to a foreign Host`);

    const keys = () => db.apiKey.count();
    const keysBefore = await keys();
    const forged = await action(
      'a key created from another Origin',
      '/keys',
      'app/keys/actions.ts#createKeyAction',
      [null, formOf({ name: 'forged', expiry: '30' })],
      devJar,
      { origin: EVIL },
    );
    if (forged.status !== 403) problems.push(`a server action from ${EVIL} answered ${forged.status}, expected 403`);
    if ((await keys()) !== keysBefore) problems.push('the forged server action created a key');
    assertNone(problems, 'a foreign Host or Origin was not refused');
  });
});

describe('secrets in every free-text field', () => {
  it('/mcp: a secret as the JSON-RPC id, the method, a member or argument name, or in Origin, MCP-Protocol-Version, User-Agent or X-Request-Id is never echoed', async () => {
    const auth = { authorization: `Bearer ${raised.secret}` };
    const problems: string[] = [];
    const since = ledger.count;
    for (const secret of secretVariants(planted)) {
      const id = `"id":${JSON.stringify(secret)}`;
      const attempts: [string, string, Record<string, string>, string[]][] = [
        ['a tools/call with a secret id', callBody('service_formula_info', { formula: 'H2O' }, secret), auth, [id]],
        ['an unknown tool with a secret id', callBody('no_such_tool', {}, secret), auth, [id]],
        ['a secret as the method', JSON.stringify({ jsonrpc: '2.0', id: 5, method: secret }), auth, []],
        [
          'a secret as the method, with a secret id',
          JSON.stringify({ jsonrpc: '2.0', id: secret, method: secret }),
          auth,
          [id],
        ],
        [
          'a secret as a member name',
          JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list', [secret]: 1 }),
          auth,
          [],
        ],
        [
          'a secret as a params member',
          JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: { name: 'service_formula_info', arguments: { formula: 'H2O' }, [secret]: 1 },
          }),
          auth,
          [],
        ],
        ['a secret as an argument name', callBody('service_formula_info', { formula: 'H2O', [secret]: 1 }), auth, []],
        [
          'a secret in Origin',
          callBody('service_formula_info', { formula: 'H2O' }),
          { ...auth, origin: `https://${secret.replace(/[^0-9A-Za-z_]/g, '')}.example` },
          [],
        ],
        [
          'a secret as MCP-Protocol-Version',
          callBody('service_formula_info', { formula: 'H2O' }),
          { ...auth, 'mcp-protocol-version': secret },
          [],
        ],
        [
          'a secret as User-Agent',
          callBody('service_formula_info', { formula: 'H2O' }),
          { ...auth, 'user-agent': secret },
          [],
        ],
        [
          'a secret as X-Request-Id',
          callBody('service_formula_info', { formula: 'H2O' }),
          { ...auth, 'x-request-id': secret },
          [],
        ],
        [
          'a secret in a broken body',
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${secret}"`,
          auth,
          [],
        ],
      ];
      for (const [what, body, headers, allowed] of attempts) {
        const answer = await mcp(`${what} (${short(secret)})`, body, headers, allowed);
        if (answer.status >= 500) problems.push(`${what}: ${answer.status}`);
      }
    }
    problems.push(...ledger.secretEchoes(since));
    assertNone(problems, '/mcp answers that failed or echoed a secret');
  });

  it('the portal: a leak report source, key names and disable reasons, a sign-up name, an upgrade request and a support search holding a secret: never shown back, never stored', async () => {
    const problems: string[] = [];
    const since = ledger.count;
    const fragment = planted.slice(0, 20);
    const sacrificial = await issue('abuse: reported as leaked');
    sent.writes++;
    const report = await fetch(`${server.baseUrl}/api/keys/report-leak`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        secrets: [sacrificial.secret],
        source: `https://paste.example/raw/${planted} and ${fragment}`,
      }),
    });
    ledger.record('leak report with a secret in its source', report.status, await report.text());
    if (report.status !== 202) problems.push(`the leak report answered ${report.status}`);

    await action(
      'a key named with a secret',
      '/keys',
      'app/keys/actions.ts#createKeyAction',
      [null, formOf({ name: `agent ${fragment}`, expiry: '30' })],
      devJar,
      { issuesKey: true },
    );
    const named = await db.apiKey.findFirst({
      where: { name: { startsWith: 'agent ' } },
      orderBy: { createdAt: 'desc' },
    });
    const target = named ?? (await db.apiKey.findFirstOrThrow({ where: { name: 'abuse: planted secret' } }));
    await action(
      'a key renamed to a secret',
      `/keys/${target.id}`,
      'app/keys/actions.ts#renameKeyAction',
      [null, formOf({ keyId: target.id, name: `renamed ${planted}` })],
      devJar,
    );
    const upgradeKey = await issue('abuse: upgrade');
    await action(
      'an upgrade request holding secrets',
      '/upgrade',
      'app/upgrade/actions.ts#requestUpgradeAction',
      [
        null,
        formOf({
          keyId: upgradeKey.id,
          useCase: `My agent uses ${planted} to call you`,
          expectedDailyCalls: '20000',
          contact: `ops ${fragment}`,
        }),
      ],
      devJar,
    );
    const disabled = await issue('abuse: disabled with a secret reason');
    await action(
      'a disable reason holding a secret',
      `/keys/${disabled.id}`,
      'app/keys/actions.ts#disableKeyAction',
      [null, formOf({ keyId: disabled.id, reason: `leaked as ${planted}` })],
      devJar,
    );
    await action(
      'a sign-up whose name holds a secret',
      '/signup',
      'app/(auth)/actions.ts#signUpAction',
      [
        null,
        formOf({
          name: `Eve ${fragment}`,
          email: 'abuse-signup@example.test',
          password: 'a long sign-up password',
          confirm: 'a long sign-up password',
        }),
      ],
      new CookieJar(),
    );
    for (const q of [`owner ${fragment}`, fragment, `Bearer ${planted}`]) {
      await action(
        `a support search for ${short(q)}`,
        '/support',
        'app/support/actions.ts#searchAction',
        [null, formOf({ q })],
        adminJar,
      );
    }
    // Where staff and developers see what was stored.
    for (const path of [
      '/keys',
      '/support/audit',
      '/support/upgrades',
      '/admin/users',
      `/support?q=${encodeURIComponent(DEV.email)}`,
      `/support/keys/${target.id}`,
      `/keys/${disabled.id}`,
    ]) {
      const answer = await page(
        `${path} after the secrets were sent`,
        path,
        path.startsWith('/keys') ? devJar : adminJar,
      );
      if (answer.status !== 200) problems.push(`${path} answered ${answer.status}`);
    }
    // Usage rows are the /mcp tests' concern; here, what the portal and the leak report stored.
    problems.push(
      ...ledger.secretEchoes(since),
      ...storedSecretFragments(sqlite).filter((where) => !/^(CallLog|DailyUsage)\./.test(where)),
    );
    assertNone(problems, 'portal answers that failed or showed a secret, and secrets stored');
  });
});

describe('request bodies on every path', () => {
  const port = () => Number(new URL(server.baseUrl).port);
  /** The cap this server applies: the table's, with /mcp raised for this suite. */
  const capOf = (path: string) => (path === '/mcp' ? BODY_LIMIT : bodyCapFor(path).bytes);
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  /** At most this many probes at once: under the per-address caps on connections and requests in flight. */
  const AT_ONCE = 16;

  async function eachPath(check: (path: string) => Promise<string | null>): Promise<string[]> {
    const paths = servedPaths();
    const problems: string[] = [];
    for (let at = 0; at < paths.length; at += AT_ONCE) {
      const found = await Promise.all(paths.slice(at, at + AT_ONCE).map(check));
      problems.push(...found.filter((problem): problem is string => problem !== null));
    }
    return problems;
  }

  const record = (what: string, answer: ProbeAnswer) =>
    ledger.record(what, answer.status ?? 0, JSON.stringify(answer.json ?? {}));
  const describeAnswer = (answer: ProbeAnswer) =>
    `${answer.status ?? 'no answer'} ${answer.json?.error ?? ''}, connection ${answer.closedByServer ? 'closed' : 'left open'}`;

  it('a declared body over its path cap gets 413 before it is read, and the connection is closed, on every path Next or server.ts serves', async () => {
    const problems = await eachPath(async (path) => {
      const size = capOf(path) + 1;
      const answer = await probe(
        { port: port() },
        { path, headers: { ...FORM, 'content-length': String(size) }, body: Buffer.alloc(size, 97), giveUpMs: 30_000 },
      );
      record(`POST ${path} declaring ${size} bytes`, answer);
      const says = answer.json?.message?.includes(sizeText(capOf(path)));
      return answer.status === 413 && answer.json?.error === 'payload_too_large' && says && answer.closedByServer
        ? null
        : `${path}: ${describeAnswer(answer)}; expected 413 payload_too_large naming ${sizeText(capOf(path))}, connection closed`;
    });
    assertNone(problems, 'paths that took a body over their cap');
  });

  it('a chunked body is cut off where it crosses its path cap: 413 (or the answer already sent) and the connection closed', async () => {
    const problems = await eachPath(async (path) => {
      const answer = await probe(
        { port: port() },
        { path, headers: FORM, body: Buffer.alloc(capOf(path) + 64 * 1024, 97), chunked: true, giveUpMs: 30_000 },
      );
      record(`POST ${path} chunked past its cap`, answer);
      // A handler that answers without reading (a redirect to sign-in, a 405) has answered first.
      const refused = answer.status === 413 || (answer.status !== undefined && answer.status < 500);
      return refused && answer.closedByServer ? null : `${path}: ${describeAnswer(answer)}`;
    });
    assertNone(problems, 'paths that read a chunked body past their cap');
  });

  it('a body that trickles gets 408 (or the answer already sent) and its connection is closed, on every path', async () => {
    const problems = await eachPath(async (path) => {
      const answer = await probe(
        { port: port() },
        { path, headers: { ...FORM, 'content-length': '4096' }, body: { trickleMs: 500 }, giveUpMs: 45_000 },
      );
      record(`POST ${path} trickling its body`, answer);
      const refused = answer.status === 408 || (answer.status !== undefined && answer.status < 500);
      return refused && answer.closedByServer ? null : `${path}: ${describeAnswer(answer)}`;
    });
    assertNone(problems, 'paths that held a trickling body open');
  });

  it('a 50 MB form posted to the Auth.js callback and sign-out gets 413, declared or chunked, and the server stays up', async () => {
    const form = Buffer.from('a=&'.repeat(17_476_266));
    const problems: string[] = [];
    for (const path of ['/api/auth/callback/credentials', '/api/auth/signout']) {
      for (const chunked of [false, true]) {
        const headers = chunked ? FORM : { ...FORM, 'content-length': String(form.length) };
        const answer = await probe({ port: port() }, { path, headers, body: form, chunked });
        record(`POST ${path} with a 50 MB form${chunked ? ', chunked' : ''}`, answer);
        if (answer.status !== 413 || answer.json?.error !== 'payload_too_large')
          problems.push(`${path}${chunked ? ' chunked' : ''}: ${describeAnswer(answer)}`);
      }
    }
    const ping = await fetch(`${server.baseUrl}/api/ping`).catch((error: Error) => ({ status: error.message }));
    if (ping.status !== 200) problems.push(`/api/ping afterwards: ${ping.status}`);
    assertNone(problems, 'a 50 MB form was not refused');
  });
});

describe('afterwards', () => {
  it('the key pages, support key pages and usage JSON of the abused keys stay under 200 KB', async () => {
    const problems: string[] = [];
    for (const key of [raised, ordinary]) {
      for (const [path, jar] of [
        [`/keys/${key.id}`, devJar],
        [`/api/portal/keys/${key.id}/usage`, devJar],
        [`/support/keys/${key.id}`, adminJar],
        [`/api/support/keys/${key.id}/usage`, adminJar],
      ] as const) {
        const answer = await page(path, path, jar);
        const bytes = Buffer.byteLength(answer.text);
        if (answer.status !== 200 || bytes >= PAGE_LIMIT)
          problems.push(`${path}: ${answer.status}, ${bytes} bytes (limit ${PAGE_LIMIT})`);
      }
    }
    assertNone(problems, 'key pages or usage JSON over 200 KB');
  });

  it('the server is still up: alive, the reference call answers byte for byte as at the start, no 500, no internals in an /mcp answer, nothing logged as an error', async () => {
    const problems: string[] = [];
    try {
      process.kill(server.pid, 0);
    } catch {
      problems.push('the server process is gone');
    }
    const again = await mcp(
      'reference call, again',
      callBody('service_vapor_pressure', { compound_name: 'ethanol', temperature: 300 }),
      { authorization: `Bearer ${raised.secret}` },
    ).catch((error: Error) => ({ text: `no answer: ${error.message}` }));
    if (again.text !== referenceAnswer) problems.push(`the reference call now answers ${gist(again.text, 300)}`);
    problems.push(...ledger.serverErrors().map((error) => `a 5xx: ${error}`), ...internalsShown);
    problems.push(
      ...server
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":"error"'))
        .map((line) => `logged as an error: ${line.slice(0, 300)}`),
    );
    assertNone(problems, 'the server is not as it was');
  });

  it('storage stayed bounded by the number of requests', () => {
    const problems = storageProblems(
      start,
      storageSnapshot(sqlite),
      sent.mcp + sent.writes,
      `after ${sent.mcp} /mcp requests and ${sent.writes} writes`,
    );
    const longest = sqlite
      .prepare('SELECT MAX(LENGTH(tool)) FROM (SELECT tool FROM "CallLog" UNION ALL SELECT tool FROM "DailyUsage")')
      .pluck()
      .get() as number;
    const bound = Math.max(...catalogue.map((name) => name.length), 'unknown_tool'.length);
    if (longest > bound)
      problems.push(`a stored tool label has ${longest} characters; the longest catalogue name has ${bound}`);
    console.log(`abuse: ${ledger.count} answers checked; ${sent.mcp} /mcp requests, ${sent.writes} writes`);
    assertNone(problems, 'storage grew beyond its bound');
  });

  it('no secret fragment in any answer, Location, server output line, CLI output or stored text', () => {
    const problems = [
      ...ledger.secretEchoes(),
      ...linesWithSecrets(outputWithoutBanner(server.output()), 'server output'),
      ...cliOutput.flatMap((text) => linesWithSecrets(text, 'CLI output')),
      ...storedSecretFragments(sqlite),
    ];
    assertNone(problems, 'secret fragments echoed, logged or stored');
  });
});
