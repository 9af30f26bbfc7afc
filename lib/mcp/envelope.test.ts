/**
 * Properties of the two checks every /mcp request passes before anything else (in-process, no server):
 * the JSON-RPC envelope (envelope.ts) and the API-key headers (credentials.ts). The envelope must accept
 * only what the SDK's own JSON-RPC schemas accept: tools/call never reaches the SDK, so a message the SDK
 * would refuse must be refused here, precisely and in the §2.6 shape, before it can be admitted or billed.
 * Seeded like fuzz.test.ts (FUZZ_SEED, FUZZ_RUNS).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSONRPCNotificationSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { headerText, jsonRpcMessage, toJsonText, unknownKey } from '../../test/support/mcp-arbitraries.ts';
import { readCredentials } from './credentials.ts';
import { checkEnvelope, checkToolCallParams } from './envelope.ts';

const SEED = Number(process.env.FUZZ_SEED || 20261126);
const RUNS = Number(process.env.FUZZ_RUNS || 150) * 20;
const settings = { seed: SEED, numRuns: RUNS };

/** What handler.ts's JSON.parse makes of a generated message (placeholders for 1e999 and the like resolved). */
const parsedMessage = jsonRpcMessage(['service_query_compound', 'service_formula_info']).map(
  (message) => JSON.parse(toJsonText(message)) as unknown,
);
const anyBody = fc.oneof(parsedMessage, fc.jsonValue({ maxDepth: 3 }));

describe('the JSON-RPC envelope check', () => {
  it('accepts only messages the SDK accepts as a request or a notification', () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        const check = checkEnvelope(body);
        if (!check.ok) return;
        const sdk =
          'id' in check.message ? JSONRPCRequestSchema.safeParse(body) : JSONRPCNotificationSchema.safeParse(body);
        assert.ok(sdk.success, `accepted here, refused by the SDK: ${sdk.error?.message}`);
      }),
      settings,
    );
  });

  it('refuses with a code and a sentence, and never throws', () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        const check = checkEnvelope(body);
        if (check.ok) return;
        assert.match(check.error, /^(invalid_request|batch_not_supported)$/);
        assert.match(check.message, /^(The|This|Send|Unknown) .{20,}/);
      }),
      settings,
    );
  });

  it('refuses each member the SDK would refuse, naming it', () => {
    const ping = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'service_formula_info', arguments: {} },
    };
    const cases: [unknown, RegExp][] = [
      [{ ...ping, result: {} }, /Unknown member "result"/],
      [{ ...ping, extra: 1 }, /Unknown member "extra"/],
      [JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"admin":true}}'), /Unknown member "__proto__"/],
      [{ ...ping, id: 1.5 }, /"id" field must be a string or an integer/],
      [{ ...ping, id: 2 ** 53 }, /"id" field must be a string or an integer/],
      [{ ...ping, params: { ...ping.params, _meta: [] } }, /"params._meta" field must be an object/],
      [{ ...ping, params: { ...ping.params, _meta: { progressToken: 0.5 } } }, /progressToken/],
      [{ ...ping, params: { ...ping.params, _meta: { 'io.modelcontextprotocol/related-task': {} } } }, /taskId/],
    ];
    for (const [body, message] of cases) {
      const check = checkEnvelope(body);
      assert.equal(check.ok, false, JSON.stringify(body));
      assert.match((check as { message: string }).message, message);
    }
    assert.equal(
      checkEnvelope({ ...ping, params: { ...ping.params, _meta: { progressToken: 'p', note: 1 } } }).ok,
      true,
    );
  });

  it('tools/call params: a name and object arguments, or a message saying what is missing', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), (name, args) => {
        const problem = checkToolCallParams({ name, arguments: args });
        const fine =
          typeof name === 'string' && name !== '' && typeof args === 'object' && args !== null && !Array.isArray(args);
        assert.equal(
          problem === null,
          fine,
          `name ${JSON.stringify(name)}, arguments ${JSON.stringify(args)}: ${problem}`,
        );
      }),
      settings,
    );
  });
});

describe('reading the API key from the headers', () => {
  const headers = (values: Record<string, string | undefined>) => ({ get: (name: string) => values[name] ?? null });

  it('never throws; a key read is the Bearer token or the trimmed X-API-Key, never empty', () => {
    const value = fc.option(
      fc.oneof(
        headerText,
        unknownKey,
        unknownKey.map((k) => `Bearer ${k}`),
        headerText.map((t) => `bearer ${t}`),
      ),
      { nil: undefined },
    );
    fc.assert(
      fc.property(value, value, (authorization, apiKey) => {
        const credentials = readCredentials(headers({ authorization, 'x-api-key': apiKey }));
        if (credentials.kind !== 'key') return;
        assert.notEqual(credentials.key, '');
        const bearer = /^bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
        assert.ok(credentials.key === bearer || credentials.key === apiKey?.trim(), `read ${credentials.key}`);
        if (bearer && apiKey?.trim()) assert.equal(bearer, apiKey.trim(), 'two different keys must be a conflict');
      }),
      settings,
    );
  });

  it('the same key in both headers, in any accepted spelling, is that key; different keys conflict', () => {
    const spacing = fc.stringMatching(/^[ \t]{0,3}$/);
    fc.assert(
      fc.property(
        unknownKey,
        unknownKey,
        fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr'),
        spacing,
        spacing,
        (key, other, scheme, before, after) => {
          const separator = ` ${before}`;
          assert.deepEqual(
            readCredentials(
              headers({ authorization: `${before}${scheme}${separator}${key}${after}`, 'x-api-key': `${after}${key}` }),
            ),
            { kind: 'key', key },
          );
          const expected = key === other ? { kind: 'key', key } : { kind: 'conflict' };
          assert.deepEqual(
            readCredentials(headers({ authorization: `${scheme} ${key}`, 'x-api-key': other })),
            expected,
          );
        },
      ),
      settings,
    );
  });
});
