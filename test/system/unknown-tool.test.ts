/**
 * A free key sending tools/call with megabyte-long tool names (and names holding a secret or control
 * characters) must not be able to take the server down. Were every name stored whole in CallLog and
 * DailyUsage and rendered on the key pages, 30 such calls would run the production server out of heap
 * when the key page opens. So a name outside the catalogue is recorded, logged and labelled as the constant 'unknown_tool', the answer echoes at most a few dozen characters
 * of it (secrets redacted), and the call still counts against the key's quota, as a failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { toolResult } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { type CookieJar, signInWithForm, webRequest } from '../support/web-client.ts';

const OWNER = { email: 'owner@example.test', password: 'an owner password, long enough' };
const STAFF = { email: 'staff@example.test', password: 'a staff password, long enough' };
const LONG_CALLS = 30;
const NAME_BYTES = 1_000_000;
const PAGE_LIMIT = 200 * 1024;

describe('tools/call with hostile tool names', { concurrency: false }, () => {
  let server: TestServer;
  let keyId: string;
  let secret: string;
  const answers: { status: number; text: string }[] = [];

  before(async () => {
    // The bodies carry a megabyte of name each (the default limit is 1 MiB); a listed origin, so that
    // other origins are refused (the default, "*", allows any).
    server = await startTestServer({
      MCP_MAX_BODY_BYTES: String(2 * 1024 * 1024),
      CORS_ORIGINS: 'https://agent.example',
    });
    for (const [user, role] of [
      [OWNER, 'developer'],
      [STAFF, 'support'],
    ] as const) {
      const created = server.cli('user', 'create', '--email', user.email, '--password', user.password, '--role', role);
      assert.equal(created.status, 0, created.stderr);
    }
    // A free key, with room for the whole barrage in its per-second limit and quota.
    const created = server.cli(
      'key',
      'create',
      '--owner',
      OWNER.email,
      '--tier',
      'free',
      '--daily-quota',
      '1000',
      '--rps',
      '1000',
      '--json',
    );
    assert.equal(created.status, 0, created.stderr);
    ({ id: keyId, key: secret } = JSON.parse(created.stdout));
  });
  after(async () => server?.stop());

  const hostileNames = () => [
    ...Array.from({ length: LONG_CALLS }, (_, i) => `${i}-${'x'.repeat(NAME_BYTES)}`),
    secret,
    `service_query_compound ${secret}`,
    'evil\u0000\u001b[31m\r\n{"level":"error"}\u2028name',
  ];

  it('answers each with a short unknown_tool error that echoes no secret, names tools/list and counts as a failure', async () => {
    for (const name of hostileNames()) {
      const answer = await postMcp(server.mcpUrl, toolCall(name, {}), bearer(secret));
      answers.push(answer);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.equal(toolResult(answer).isError, true);
      const body = JSON.parse(toolResult(answer).content[0].text);
      assert.equal(body.error, 'unknown_tool');
      assert.ok(/tools\/list/.test(body.message), body.message.slice(0, 300));
      assert.ok(answer.text.length < 2000, `an answer of ${answer.text.length} characters`);
      assert.ok(!answer.text.includes(secret.slice(3)), `the secret is echoed: ${answer.text}`);
    }
    const show = server.cli('key', 'show', keyId, '--json');
    assert.equal(show.status, 0, show.stderr);
    const report = JSON.parse(show.stdout);
    assert.equal(report.usedToday, hostileNames().length, 'every call counted against the quota');
    assert.deepEqual(report.today, [
      { tool: 'unknown_tool', successes: 0, failures: hostileNames().length, rateLimited: 0 },
    ]);
  });

  it('stores only the label: no tool value longer than "unknown_tool", in CallLog or DailyUsage', () => {
    const db = new Database(sqliteFilePath(server.env.DATABASE_URL!), { readonly: true, fileMustExist: true });
    try {
      for (const table of ['CallLog', 'DailyUsage']) {
        const tools = db.prepare(`SELECT DISTINCT tool FROM "${table}" WHERE keyId = ?`).pluck().all(keyId);
        assert.deepEqual(tools, ['unknown_tool'], table);
      }
      const outcomes = db
        .prepare('SELECT outcome, errorCode, COUNT(*) AS n FROM "CallLog" WHERE keyId = ? GROUP BY outcome, errorCode')
        .all(keyId);
      assert.deepEqual(outcomes, [{ outcome: 'failure', errorCode: 'unknown_tool', n: hostileNames().length }]);
    } finally {
      db.close();
    }
  });

  async function page(jar: CookieJar, path: string) {
    const answer = await webRequest(`${server.baseUrl}${path}`, { headers: { cookie: jar.header() } });
    assert.equal(answer.status, 200, `${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    assert.ok(answer.text.length < PAGE_LIMIT, `${path} is ${answer.text.length} characters`);
    assert.ok(!answer.text.includes('x'.repeat(100)), `${path} shows a caller's name`);
    assert.ok(!answer.text.includes(secret), `${path} shows the secret`);
    return answer.text;
  }

  it('the key page and its usage JSON stay small, for the owner and for staff', async () => {
    const owner = (await signInWithForm(server.baseUrl, OWNER.email, OWNER.password)).jar;
    assert.match(await page(owner, `/keys/${keyId}`), /unknown_tool/);
    assert.equal(JSON.parse(await page(owner, `/api/portal/keys/${keyId}/usage`)).usedToday, hostileNames().length);
    const staff = (await signInWithForm(server.baseUrl, STAFF.email, STAFF.password)).jar;
    assert.match(await page(staff, `/support/keys/${keyId}`), /unknown_tool/);
    assert.equal(JSON.parse(await page(staff, `/api/support/keys/${keyId}/usage`)).usedToday, hostileNames().length);
  });

  it('logs and labels the calls as unknown_tool: no caller name and no secret in the server output', async () => {
    const output = server.output();
    assert.ok(!output.includes('x'.repeat(100)), 'a long name was logged');
    assert.ok(!output.includes(secret), 'the secret was logged');
    assert.ok(!output.includes('evil'), 'a hostile name was logged');
    const logged = output.split('\n').filter((line) => line.includes('"mcp tools/call"'));
    assert.equal(logged.length, hostileNames().length);
    for (const line of logged) assert.equal(JSON.parse(line).tool, 'unknown_tool');
  });

  it('every other echo of caller text is short and holds no secret: Origin, MCP-Protocol-Version, a member name, the JSON error, an argument name', async () => {
    const long = `${'x'.repeat(6000)} ${secret}`;
    const near = `${secret} ${'x'.repeat(6000)}`;
    const call = toolCall('service_formula_info', { formula: 'H2O' });
    const sent: [string, Promise<{ status: number; text: string }>][] = [
      ['Origin', postMcp(server.mcpUrl, call, { ...bearer(secret), origin: `https://${near}` })],
      ['MCP-Protocol-Version', postMcp(server.mcpUrl, call, { ...bearer(secret), 'mcp-protocol-version': near })],
      ['a member name', postMcp(server.mcpUrl, { ...call, [near]: 1 }, bearer(secret))],
      ['a member name, the secret past the cut', postMcp(server.mcpUrl, { ...call, [long]: 1 }, bearer(secret))],
      [
        'the JSON error',
        postMcp(
          server.mcpUrl,
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${secret}"}} ${secret}`,
          bearer(secret),
        ),
      ],
      [
        'an argument name',
        postMcp(server.mcpUrl, toolCall('service_formula_info', { formula: 'H2O', [near]: 1 }), bearer(secret)),
      ],
      [
        'many argument names',
        postMcp(
          server.mcpUrl,
          toolCall(
            'service_formula_info',
            Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${i}-${secret}`, 1])),
          ),
          bearer(secret),
        ),
      ],
    ];
    for (const [what, answer] of sent) {
      const { status, text } = await answer;
      assert.ok(status === 200 || status === 400 || status === 403, `${what}: ${status}`);
      assert.ok(text.length < 2000, `${what}: an answer of ${text.length} characters`);
      assert.ok(!text.includes(secret.slice(3, 20)), `${what} echoes the secret: ${text}`);
      assert.ok(!text.includes('x'.repeat(100)), `${what} echoes the whole text`);
    }
  });
});
