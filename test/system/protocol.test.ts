/** The /mcp contract (the interface spec), run against the production server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { QueryCompoundResult } from '../../lib/chem/tools/query-compound.ts';
import type { KeyReport } from '../../lib/usage/key-report.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { errorBody, initializeResult, listedTools, rpcError, rpcResult, toolResult } from '../support/mcp-answers.ts';
import { bearer, MCP_HEADERS, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { reportCountingRateLimited } from '../support/rate-limited-report.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const EXACT_CAPABILITIES = {
  experimental: {},
  prompts: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  tools: { listChanged: false },
};

function initialize(protocolVersion: string) {
  return rpc('initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'protocol-test', version: '1.0.0' },
  });
}

function createKey(server: TestServer, ...options: string[]): string {
  const result = server.cli('key', 'create', '--owner', server.adminEmail, '--json', ...options);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout).key;
}

function usageToday(server: TestServer, key: string): KeyReport {
  const result = server.cli('key', 'show', key, '--json');
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

describe('/mcp protocol', { concurrency: false }, () => {
  let server: TestServer;
  let url: string;
  let key: string;

  before(async () => {
    server = await startTestServer();
    url = server.mcpUrl;
    key = createKey(server, '--tier', 'pro', '--name', 'protocol');
  });
  after(async () => server?.stop());

  describe('discovery without a key', () => {
    it('initialize negotiates 2025-06-18 and answers the exact capabilities and serverInfo as one SSE data line', async () => {
      const answer = await postMcp(url, initialize('2025-06-18'));
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type')!, /^text\/event-stream/);
      assert.equal(initializeResult(answer).protocolVersion, '2025-06-18');
      assert.deepEqual(initializeResult(answer).capabilities, EXACT_CAPABILITIES);
      assert.deepEqual(initializeResult(answer).serverInfo, { name: 'service_mcp', version: packageJson.version });
      assert.match(initializeResult(answer).serverInfo.version, /^\d+\.\d+\.\d+$/);
    });

    it('echoes other supported versions and answers the latest for an unsupported one', async () => {
      assert.equal(initializeResult(await postMcp(url, initialize('2025-03-26'))).protocolVersion, '2025-03-26');
      assert.equal(initializeResult(await postMcp(url, initialize('2024-11-05'))).protocolVersion, '2024-11-05');
      assert.equal(initializeResult(await postMcp(url, initialize('1999-01-01'))).protocolVersion, '2025-11-25');
    });

    it('notifications/initialized answers 202 with an empty body', async () => {
      const answer = await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized', params: {} });
      assert.equal(answer.status, 202);
      assert.equal(answer.text, '');
    });

    it('tools/list lists the registry with FastMCP-style schemas', async () => {
      const answer = await postMcp(url, rpc('tools/list'));
      assert.equal(answer.status, 200);
      const query = listedTools(answer).find((t) => t.name === 'service_query_compound');
      assert.ok(query, 'service_query_compound is listed');
      assert.equal(query.inputSchema.title, 'service_query_compoundArguments');
      assert.deepEqual(query.inputSchema.required, ['compound_name']);
      assert.equal(query.outputSchema.type, 'object');
      for (const tool of listedTools(answer) as { name: string; title?: string; annotations?: object }[]) {
        assert.ok(tool.title, `${tool.name} has a title`);
        assert.deepEqual(
          tool.annotations,
          { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
          tool.name,
        );
      }
    });

    it('tools/list with params is validated like any other call (only the bare call is served from the cached listing)', async () => {
      const plain = await postMcp(url, rpc('tools/list'));
      const withCursor = await postMcp(url, { ...rpc('tools/list'), params: { cursor: 'abc' } });
      assert.deepEqual(rpcResult(withCursor), rpcResult(plain));
      const badCursor = await postMcp(url, { ...rpc('tools/list'), params: { cursor: 5 } });
      assert.equal(badCursor.status, 200);
      assert.equal(rpcError(badCursor).code, -32603);
      assert.match(rpcError(badCursor).message, /expected.*string/s);
    });
  });

  describe('keys', () => {
    for (const method of ['ping', 'tools/call', 'prompts/list', 'resources/list', 'no/such/method']) {
      it(`${method} without a key is 401 missing_api_key naming both headers`, async () => {
        const answer = await postMcp(
          url,
          method === 'tools/call' ? toolCall('service_query_compound', { compound_name: 'water' }) : rpc(method),
        );
        assert.equal(answer.status, 401);
        assert.equal(errorBody(answer).error, 'missing_api_key');
        assert.match(errorBody(answer).message, /Authorization/);
        assert.match(errorBody(answer).message, /X-API-Key/);
      });
    }

    it('accepts the key as Bearer, as lower-case bearer with stray spaces, and as X-API-Key', async () => {
      for (const headers of [
        bearer(key),
        { authorization: `  bearer   ${key}  ` },
        { 'x-api-key': ` ${key} ` },
        { ...bearer(key), 'x-api-key': key },
      ]) {
        const answer = await postMcp(url, rpc('ping'), headers);
        assert.equal(answer.status, 200, JSON.stringify(headers));
        assert.deepEqual(rpcResult(answer), {});
      }
    });

    it('refuses malformed keys precisely, without a database lookup being needed', async () => {
      const body = key.slice(3);
      const cases: [string, RegExp][] = [
        [`sk_${body}`, /start with "cf_"/],
        [key.slice(0, -2), /41 characters/],
        [`cf_${body.slice(0, 10)}!${body.slice(11)}`, /letters and digits/],
        [`cf_${body[0] === 'a' ? 'b' : 'a'}${body.slice(1)}`, /checksum/],
      ];
      for (const [candidate, message] of cases) {
        const answer = await postMcp(url, rpc('ping'), bearer(candidate));
        assert.equal(answer.status, 401, candidate);
        assert.equal(errorBody(answer).error, 'invalid_api_key');
        assert.match(errorBody(answer).message, message);
        assert.match(errorBody(answer).message, /not recognised/);
      }
    });

    it('refuses a well-formed key that does not exist as not recognised', async () => {
      const { generateKey } = await import('../../lib/keys/format.ts');
      const answer = await postMcp(url, rpc('ping'), bearer(generateKey()));
      assert.equal(answer.status, 401);
      assert.equal(errorBody(answer).error, 'invalid_api_key');
      assert.match(errorBody(answer).message, /no such key/);
    });

    it('a key disabled with the CLI is refused on the very next call, saying who disabled it and when, not why', async () => {
      const victim = createKey(server);
      assert.equal((await postMcp(url, rpc('ping'), bearer(victim))).status, 200);
      assert.equal(server.cli('key', 'disable', victim, '--reason', 'leaked in a gist').status, 0);
      const answer = await postMcp(url, rpc('ping'), bearer(victim));
      assert.equal(answer.status, 401);
      assert.equal(errorBody(answer).error, 'invalid_api_key');
      assert.match(errorBody(answer).message, /^API key disabled by the service's operator on \d{4}-\d{2}-\d{2}T/);
      assert.doesNotMatch(errorBody(answer).message, /leaked in a gist/);
    });

    it('a reissued key stops working at once and its successor works', async () => {
      const original = createKey(server);
      assert.equal((await postMcp(url, rpc('ping'), bearer(original))).status, 200);
      const reissued = server.cli('key', 'reissue', original, '--json');
      assert.equal(reissued.status, 0, reissued.stderr);
      const successor = JSON.parse(reissued.stdout).key;
      assert.equal((await postMcp(url, rpc('ping'), bearer(original))).status, 401);
      assert.equal((await postMcp(url, rpc('ping'), bearer(successor))).status, 200);
    });

    it('an expired key is refused, saying it expired', async () => {
      // Long enough to outlast the CLI's own start-up on a busy machine before the first call.
      const created = server.cli(
        'key',
        'create',
        '--owner',
        server.adminEmail,
        '--json',
        '--expires',
        new Date(Date.now() + 8000).toISOString(),
      );
      assert.equal(created.status, 0, created.stderr);
      const { key: expiring, expiresAt } = JSON.parse(created.stdout);
      assert.equal((await postMcp(url, rpc('ping'), bearer(expiring))).status, 200);
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now()) + 50));
      const answer = await postMcp(url, rpc('ping'), bearer(expiring));
      assert.equal(answer.status, 401);
      assert.equal(errorBody(answer).error, 'invalid_api_key');
      assert.match(errorBody(answer).message, /expired/);
    });

    it('two different keys in the two headers are refused with 400', async () => {
      const answer = await postMcp(url, rpc('ping'), { ...bearer(key), 'x-api-key': server.demoKey });
      assert.equal(answer.status, 400);
      assert.equal(errorBody(answer).error, 'conflicting_api_keys');
    });

    it('an Authorization header that is not Bearer is refused with a message saying how to send the key', async () => {
      const answer = await postMcp(url, rpc('ping'), {
        authorization: `Basic ${Buffer.from('a:b').toString('base64')}`,
      });
      assert.equal(answer.status, 401);
      assert.equal(errorBody(answer).error, 'invalid_api_key');
      assert.match(errorBody(answer).message, /Bearer/);
    });
  });

  describe('methods with a key', () => {
    it('ping, prompts/list, resources/list and resources/templates/list answer empty results', async () => {
      assert.deepEqual(rpcResult(await postMcp(url, rpc('ping'), bearer(key))), {});
      assert.deepEqual(rpcResult(await postMcp(url, rpc('prompts/list'), bearer(key))), { prompts: [] });
      assert.deepEqual(rpcResult(await postMcp(url, rpc('resources/list'), bearer(key))), { resources: [] });
      assert.deepEqual(rpcResult(await postMcp(url, rpc('resources/templates/list'), bearer(key))), {
        resourceTemplates: [],
      });
    });

    it('an unknown method answers JSON-RPC -32601', async () => {
      const answer = await postMcp(url, rpc('tools/frobnicate'), bearer(key));
      assert.equal(answer.status, 200);
      assert.equal(rpcError(answer).code, -32601);
    });
  });

  describe('tools/call', () => {
    it('answers the compound document as text and structuredContent, with rate-limit headers', async () => {
      const answer = await postMcp(url, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(key));
      assert.equal(answer.status, 200);
      const result = toolResult<QueryCompoundResult>(answer);
      assert.equal(result.isError, false);
      assert.equal(result.content[0].type, 'text');
      const doc: QueryCompoundResult = JSON.parse(result.content[0].text);
      assert.deepEqual(doc, result.structuredContent);
      assert.equal(doc.cas, '64-17-5');
      assert.equal(doc.properties.molecular_weight!.unit, 'g/mol');
      assert.ok(Math.abs(doc.properties.molecular_weight!.value - 46.07) < 0.01);
      // Each citation once, in the sources table; the value names it by id.
      const cited = doc.properties.critical_temperature!.source;
      assert.match((doc as { sources?: Record<string, string> }).sources?.[cited] ?? '', /Poling|IUPAC|Lemmon|NIST/);
      assert.equal(answer.headers.get('x-ratelimit-limit'), '100000');
      assert.match(answer.headers.get('x-ratelimit-remaining')!, /^\d+$/);
      assert.match(answer.headers.get('x-ratelimit-reset')!, /^\d{10}$/);
      assert.match(
        answer.headers.get('x-request-id')!,
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        'a UUID version 7',
      );
      // The one-event answer goes out in one piece, not chunked.
      assert.equal(answer.headers.get('content-length'), String(Buffer.byteLength(answer.text)));
    });

    it('unknown tools, bad arguments and unknown compounds are tool errors, not protocol errors', async () => {
      const cases: [object, RegExp][] = [
        [toolCall('service_no_such_tool', {}), /unknown_tool/],
        [toolCall('service_query_compound', {}), /missing required argument "compound_name"/],
        [toolCall('service_query_compound', { compound_name: 42 }), /must be of type string/],
        [
          toolCall('service_query_compound', { compound_name: 'water', colour: 'blue' }),
          /unknown argument "colour" \(arguments: compound_name\)/,
        ],
        [
          toolCall('service_vapor_pressure', { compound_name: 'water', temperature: 300, temperature_units: 'K' }),
          /unknown argument "temperature_units" \(did you mean "temperature_unit"\?\)/,
        ],
        [
          toolCall('service_vapor_pressure', {
            compound_name: 'water',
            temperature: 300,
            unit: 'K',
            temperature_unit: 'K',
          }),
          /"unit" and "temperature_unit" are the same argument: give it once, as "temperature_unit"/,
        ],
        [
          toolCall('service_liquid_density', { compound: 'water', temperature: 300 }),
          /unknown argument "compound" \(did you mean "compound_name"\?\)/,
        ],
        [
          toolCall('service_molecule_descriptors', { smiles: 'caffeine' }),
          /not a valid SMILES string .*pass it as compound_name/,
        ],
        [toolCall('service_formula_info', { formula: 'ethanol' }), /is a compound name, pass it as compound_name/],
        [
          toolCall('service_convert_units', { value: 1, from_unit: 'barz', to_unit: 'kPa' }),
          /Accepted pressure units: Pa, hPa, kPa/,
        ],
        // A typo no name table holds ("etanol" is Spanish for ethanol, and the PubChem table knows it).
        [toolCall('service_query_compound', { compound_name: 'ethanoll' }), /did you mean[\s\S]*ethanol/i],
      ];
      for (const [body, message] of cases) {
        const answer = await postMcp(url, body, bearer(key));
        assert.equal(answer.status, 200);
        assert.equal(toolResult(answer).isError, true);
        const failure = JSON.parse(toolResult(answer).content[0].text);
        assert.match(`${failure.error}: ${failure.message}`, message);
      }
    });

    it('a tools/call without a tool name is a JSON-RPC invalid-params error that costs nothing', async () => {
      const fresh = createKey(server, '--tier', 'pro');
      const answer = await postMcp(url, rpc('tools/call', { arguments: {} }), bearer(fresh));
      assert.equal(answer.status, 200);
      assert.equal(rpcError(answer).code, -32602);
      assert.equal(usageToday(server, fresh).usedToday, 0);
    });
  });

  describe('limits', () => {
    it('a free key gets 1 call per second: of two calls sent together, one is 429 with Retry-After and upgrade guidance', async () => {
      const free = createKey(server);
      // Together, so one is refused however long the other takes to answer on a busy machine.
      const pair = await Promise.all(
        [1, 2].map(() => postMcp(url, toolCall('service_query_compound', { compound_name: 'water' }), bearer(free))),
      );
      assert.deepEqual(pair.map((answer) => answer.status).sort(), [200, 429]);
      const admitted = pair.find((answer) => answer.status === 200)!;
      const refused = pair.find((answer) => answer.status === 429)!;
      assert.equal(admitted.headers.get('x-ratelimit-limit'), '1000');
      assert.equal(admitted.headers.get('x-ratelimit-remaining'), '999');
      assert.equal(errorBody(refused).error, 'rate_limit_exceeded');
      assert.equal(errorBody(refused).tier, 'free');
      assert.equal(errorBody(refused).upgrade?.tier, 'pro');
      assert.equal(errorBody(refused).upgrade?.daily_quota, 100000);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '999');
      assert.match(refused.headers.get('x-ratelimit-reset')!, /^\d{10}$/);
    });

    it('the daily quota admits exactly Q calls, then 429 until the next reset; rejections are recorded and cost nothing', async () => {
      const small = createKey(server, '--daily-quota', '3', '--rps', '100');
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await postMcp(url, toolCall('service_query_compound', { compound_name: 'methane' }), bearer(small))).status,
          200,
        );
      }
      const refused = await postMcp(
        url,
        toolCall('service_query_compound', { compound_name: 'methane' }),
        bearer(small),
      );
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      const nextMidnight = new Date();
      nextMidnight.setUTCHours(24, 0, 0, 0);
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(nextMidnight.getTime() / 1000));
      assert.match(errorBody(refused).message, /Daily quota of 3 calls/);
      const report = await reportCountingRateLimited(() => usageToday(server, small), 1);
      assert.equal(report.usedToday, 3);
      assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 3, failures: 0, rateLimited: 1 }]);
    });

    it('N simultaneous calls on a key with Q calls left admit exactly min(N, Q)', async () => {
      const quota = 7;
      const burst = createKey(server, '--daily-quota', String(quota), '--rps', '1000');
      const answers = await Promise.all(
        Array.from({ length: 25 }, () =>
          postMcp(url, toolCall('service_query_compound', { compound_name: 'propane' }), bearer(burst)),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 200).length, quota);
      assert.equal(answers.filter((a) => a.status === 429).length, 25 - quota);
      const report = await reportCountingRateLimited(() => usageToday(server, burst), 25 - quota);
      assert.equal(report.usedToday, quota);
      assert.equal(report.today[0].rateLimited, 25 - quota);
    });
  });

  describe('usage records', () => {
    it('records every admitted call with its outcome, and nothing for refused requests', async () => {
      const counted = createKey(server, '--tier', 'pro');
      await postMcp(url, toolCall('service_query_compound', { compound_name: 'benzene' }), bearer(counted));
      await postMcp(url, toolCall('service_query_compound', { compound_name: 'unobtainium' }), bearer(counted));
      await postMcp(url, toolCall('service_no_such_tool', {}), bearer(counted));
      await postMcp(url, '{not json', bearer(counted));
      await postMcp(url, rpc('ping'), bearer(counted));
      await postMcp(url, toolCall('service_query_compound', { compound_name: 'water' }), {
        authorization: 'Bearer cf_short',
      });
      const report = usageToday(server, counted);
      assert.equal(report.usedToday, 3);
      // A name outside the catalogue is recorded as the constant unknown_tool, never as sent.
      assert.deepEqual(report.today, [
        { tool: 'service_query_compound', successes: 1, failures: 1, rateLimited: 0 },
        { tool: 'unknown_tool', successes: 0, failures: 1, rateLimited: 0 },
      ]);
      assert.equal(report.lastCalls.length, 3);
      assert.deepEqual(report.lastCalls.map((c) => c.outcome).sort(), ['failure', 'failure', 'success']);
      assert.ok(report.lastCalls.some((c) => c.errorCode === 'compound_not_found'));
      assert.ok(report.lastCalls.every((c) => typeof c.latencyMs === 'number' && c.requestId));
      assert.equal(report.trend.length, 7);
      assert.equal(report.trend[6].successes, 1);
      assert.equal(report.trend[6].failures, 2);
    });
  });

  describe('bad input', () => {
    const cases: [string, () => Promise<Response>, number, string][] = [
      [
        'malformed JSON',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc":' }),
        400,
        'parse_error',
      ],
      ['an empty body', () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: '' }), 400, 'parse_error'],
      [
        'a batch array',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify([rpc('ping'), rpc('ping')]) }),
        400,
        'batch_not_supported',
      ],
      [
        'a non-JSON-RPC object',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: '{"hello":"world"}' }),
        400,
        'invalid_request',
      ],
      [
        'jsonrpc 1.0',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc":"1.0","id":1,"method":"ping"}' }),
        400,
        'invalid_request',
      ],
      [
        'params of the wrong type',
        () =>
          fetch(url, {
            method: 'POST',
            headers: MCP_HEADERS,
            body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}',
          }),
        400,
        'invalid_request',
      ],
      [
        'an id of the wrong type',
        () =>
          fetch(url, {
            method: 'POST',
            headers: MCP_HEADERS,
            body: '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
          }),
        400,
        'invalid_request',
      ],
      [
        'a huge body',
        () =>
          fetch(url, {
            method: 'POST',
            headers: MCP_HEADERS,
            body: JSON.stringify({ ...rpc('tools/list'), pad: 'x'.repeat(2 * 1024 * 1024) }),
          }),
        413,
        'payload_too_large',
      ],
      // The body readers once signalled "too large" and "not UTF-8" with these very strings.
      [
        'a body whose text is too_large',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: 'too_large' }),
        400,
        'parse_error',
      ],
      [
        'a body whose text is invalid_utf8',
        () => fetch(url, { method: 'POST', headers: MCP_HEADERS, body: 'invalid_utf8' }),
        400,
        'parse_error',
      ],
      [
        'a non-JSON content type',
        () =>
          fetch(url, {
            method: 'POST',
            headers: { ...MCP_HEADERS, 'content-type': 'text/plain' },
            body: JSON.stringify(rpc('ping')),
          }),
        415,
        'unsupported_media_type',
      ],
      [
        'an Accept without text/event-stream',
        () =>
          fetch(url, {
            method: 'POST',
            headers: { ...MCP_HEADERS, accept: 'application/json' },
            body: JSON.stringify(rpc('tools/list')),
          }),
        406,
        'not_acceptable',
      ],
      [
        'an unsupported MCP-Protocol-Version header',
        () =>
          fetch(url, {
            method: 'POST',
            headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2023-01-01' },
            body: JSON.stringify(rpc('tools/list')),
          }),
        400,
        'unsupported_protocol_version',
      ],
      ['GET', () => fetch(url), 405, 'method_not_allowed'],
      ['DELETE', () => fetch(url, { method: 'DELETE' }), 405, 'method_not_allowed'],
    ];
    for (const [name, send, status, error] of cases) {
      it(`${name} gets ${status} ${error} as JSON, without internals`, async () => {
        const response = await send();
        assert.equal(response.status, status);
        assert.match(response.headers.get('content-type')!, /^application\/json/);
        const body = await response.json();
        assert.equal(body.error, error);
        assert.equal(typeof body.message, 'string');
        assert.doesNotMatch(JSON.stringify(body), /at \w+ \(|node_modules|\.ts:\d+/);
        if (status === 405) assert.equal(response.headers.get('allow'), 'POST');
      });
    }

    it('a body that is not valid UTF-8 is 400 parse_error saying so, and a tools/call in it is neither run nor billed', async () => {
      type Part = string | number[] | Buffer;
      const bytes = (...parts: Part[]) =>
        Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
      const call = (formula: Part, pad: Part = '') =>
        bytes(
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_formula_info","arguments":{"formula":"',
          formula,
          '"},"_meta":{"pad":"',
          pad,
          '"}}}',
        );
      const before = usageToday(server, key).usedToday;
      const invalid = [
        call([0x48, 0xff, 0x4f]), // a byte that never occurs in UTF-8
        call([0x48, 0xc3]), // a two-byte sequence cut short
        call([0xed, 0xa0, 0x80]), // an encoded surrogate (U+D800)
        call([0xc0, 0xaf]), // an overlong "/"
        call('H2O', bytes('🧪'.repeat(60_000), [0xf0, 0x9f])), // valid across many chunks, cut short at the very end
      ];
      for (const body of invalid) {
        const response = await fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(key) }, body });
        assert.equal(response.status, 400);
        const answer = await response.json();
        assert.equal(answer.error, 'parse_error');
        assert.match(answer.message, /not valid UTF-8.*send the JSON-RPC message as UTF-8/);
      }
      assert.equal(usageToday(server, key).usedToday, before, 'no call was admitted');
      // The same body, valid: multi-byte characters split across reads are decoded whole.
      const valid = await fetch(url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...bearer(key) },
        body: call('H2O', '🧪'.repeat(60_000)),
      });
      assert.equal(valid.status, 200);
      assert.match(await valid.text(), /"isError":false/);
    });

    it('the server is still up after all of that', async () => {
      assert.equal((await postMcp(url, initialize('2025-06-18'))).status, 200);
    });
  });

  describe('CORS', () => {
    it('answers a preflight and exposes the rate-limit headers', async () => {
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://agent.example');
      assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
      assert.match(preflight.headers.get('access-control-allow-headers')!, /Authorization/i);
      const answer = await postMcp(url, toolCall('service_query_compound', { compound_name: 'water' }), {
        ...bearer(key),
        origin: 'https://agent.example',
      });
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://agent.example');
      assert.match(answer.headers.get('access-control-expose-headers')!, /X-RateLimit-Remaining/i);
    });

    it('a body over the cap, refused before the handler reads it, still reaches a browser client as 413', async () => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, origin: 'https://agent.example' },
        body: JSON.stringify({ ...rpc('tools/list'), pad: 'x'.repeat(2 * 1024 * 1024) }),
      });
      assert.equal(answer.status, 413);
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://agent.example');
      assert.equal(((await answer.json()) as { error: string }).error, 'payload_too_large');
    });
  });

  it('logged no error while serving all of the above (e.g. a checkpoint worker that failed to start)', () => {
    const errors = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":"error"'));
    assert.deepEqual(errors, []);
  });
});
