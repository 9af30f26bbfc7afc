/**
 * Secrets pasted where they do not belong are never kept in clear. Against the real production server
 * (LOG_LEVEL=debug), live secrets go into every free-text field there is: as a /mcp tool name, tool
 * argument, argument name, protocol-version and Host header and in a broken body; as a public leak
 * report's source and a support agent's leak source; as a key name and disable reason from the CLI;
 * and through the portal's server actions as a key name, a rename, a disable, re-enable and settings
 * reason, an upgrade request's use case and contact, a decision note, a sign-up name and email, and a
 * support search. Then no secret fragment (cf_ and 9 or more letters or digits, more than a display
 * form shows) may be in any text column of any table, in the server's output (the first-start banner
 * aside), in any answer the server gave, or on the pages that show that text (the audit trail, the
 * key pages, the upgrade queue). Portal fields people type refuse a secret with a message; a leak
 * source is kept, with the secret cut to its display form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSqliteFile } from '../../lib/db/sqlite-file.ts';
import { containsSecretFragment } from '../../lib/ops/redact.ts';
import { toolResult } from '../support/mcp-answers.ts';
import { bearer, MCP_HEADERS, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { startTestServer } from '../support/test-server.ts';
import {
  CookieJar,
  callServerAction,
  formOf,
  serverActionIds,
  signInWithForm,
  webRequest,
} from '../support/web-client.ts';

const DEV = 'secrets-dev@example.test';
const DEV_PASSWORD = 'a long secrets test password';
const SECRET_REFUSED = /do not paste secrets here/;
/** The same shape as format.ts's filter, global, to list what was found. */
const FRAGMENTS = /cf_[0-9A-Za-z]{9,}/g;

test('a secret in any free-text field is refused or stored redacted: no fragment in any table, log line, answer or page', {
  timeout: 600_000,
}, async (t) => {
  const server = await startTestServer({ LOG_LEVEL: 'debug' });
  t.after(() => server.stop());
  const { baseUrl, mcpUrl } = server;
  const actions = serverActionIds();
  const action = (name: string) => {
    const id = actions.get(name);
    assert.ok(id, `${name} is in the build's server actions`);
    return id;
  };
  /** Every answer body and Location header the server gave; none may hold a fragment. */
  const answers: { what: string; text: string }[] = [];
  const keep = (what: string, text: string) => answers.push({ what, text });

  const cli = (...args: string[]) => {
    const run = server.cli(...args);
    assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };
  const issue = (name: string, owner = DEV) =>
    JSON.parse(cli('key', 'create', '--owner', owner, '--name', name, '--rps', '1000', '--json')) as {
      id: string;
      key: string;
    };
  cli('user', 'create', '--email', DEV, '--password', DEV_PASSWORD);
  const agent = issue('agent');
  /** The secret pasted everywhere: a live key of the developer's. */
  const pasted = issue('pasted').key;
  const reported = issue('reported by the public');
  const ownerTarget = issue('owner disables it');
  const staffTarget = issue('staff disable it');
  const upgraded = issue('upgrade asked for');
  const bulk = issue('reported by support');

  // The operator CLI: a key named after a secret, a disable reason quoting one (stored redacted).
  const cliNamed = issue(`copy of ${pasted}`);
  cli('key', 'disable', cliNamed.id, '--reason', `found ${pasted} in a chat`);

  // /mcp: the secret as a tool name, an argument, an argument name, headers, a broken body, a method.
  const auth = bearer(agent.key);
  const mcp = async (what: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await postMcp(mcpUrl, body, { ...auth, ...headers });
    keep(`/mcp ${what}`, answer.text);
    return answer;
  };
  const asToolName = await mcp('tool name', toolCall(pasted, {}));
  assert.equal(toolResult(asToolName).isError, true);
  await mcp('tool name in a sentence', toolCall(`call ${pasted} please`, {}));
  await mcp('argument', toolCall('service_query_compound', { compound_name: pasted }));
  await mcp('argument name', toolCall('service_query_compound', { compound_name: 'water', [pasted]: 1 }));
  await mcp('argument of the wrong type', toolCall('service_query_compound', { compound_name: [pasted] }));
  assert.equal(
    (await mcp('protocol version header', rpc('tools/list'), { 'mcp-protocol-version': pasted })).status,
    400,
  );
  assert.equal(
    (await mcp('broken JSON', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${pasted}"`)).status,
    400,
  );
  await mcp('method', { jsonrpc: '2.0', id: 9, method: pasted });
  const hostHeader = await webRequest(mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth, host: `${pasted}.example` },
    body: JSON.stringify(rpc('tools/list')),
  });
  keep('/mcp Host header', hostHeader.text);

  // The public leak report whose source holds the secret it reports: the key goes off, the source is kept redacted.
  const report = await webRequest(`${baseUrl}/api/keys/report-leak`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secrets: [reported.key], source: `https://paste.example/raw?line=API_KEY=${reported.key}` }),
  });
  assert.equal(report.status, 202, report.text);
  keep('leak report', report.text);

  // The portal, through its server actions as a browser posts them.
  const dev = (await signInWithForm(baseUrl, DEV, DEV_PASSWORD)).jar;
  const admin = (await signInWithForm(baseUrl, server.adminEmail, server.adminPassword!)).jar;
  const post = async (what: string, jar: CookieJar, page: string, name: string, fields: Record<string, string>) => {
    const answer = await callServerAction(baseUrl, { page, actionId: action(name), args: [null, formOf(fields)], jar });
    keep(`action ${what}`, answer.text);
    if (answer.headers.location) keep(`Location of ${what}`, String(answer.headers.location));
    return answer;
  };
  /** Fields that took a secret instead of refusing it with a message; checked at the end with the rest. */
  const accepted: string[] = [];
  const refused = async (what: string, jar: CookieJar, page: string, name: string, fields: Record<string, string>) => {
    const answer = await post(what, jar, page, name, fields);
    if (!SECRET_REFUSED.test(answer.text)) accepted.push(`not refused with a message: ${what}`);
  };
  await refused('create a key named after a secret', dev, '/keys', 'app/keys/actions.ts#createKeyAction', {
    name: `ci ${pasted}`,
    expiry: '30',
  });
  await refused('rename', dev, `/keys/${agent.id}`, 'app/keys/actions.ts#renameKeyAction', {
    keyId: agent.id,
    name: pasted,
  });
  await refused('owner disable reason', dev, `/keys/${ownerTarget.id}`, 'app/keys/actions.ts#disableKeyAction', {
    keyId: ownerTarget.id,
    reason: `leaked as ${pasted}`,
  });
  await refused('upgrade use case', dev, '/upgrade', 'app/upgrade/actions.ts#requestUpgradeAction', {
    keyId: agent.id,
    useCase: `my agent uses ${pasted}`,
    expectedDailyCalls: '20000',
    contact: 'me@example.test',
  });
  await refused('upgrade contact', dev, '/upgrade', 'app/upgrade/actions.ts#requestUpgradeAction', {
    keyId: agent.id,
    useCase: 'lab automation',
    expectedDailyCalls: '20000',
    contact: pasted,
  });
  const requested = await post(
    'a clean upgrade request',
    dev,
    '/upgrade',
    'app/upgrade/actions.ts#requestUpgradeAction',
    { keyId: upgraded.id, useCase: 'lab automation', expectedDailyCalls: '20000', contact: 'me@example.test' },
  );
  assert.doesNotMatch(
    requested.text,
    /"ok":false/,
    `control: a clean request is accepted:\n${requested.text.slice(0, 500)}`,
  );

  const db = openSqliteFile(server.env.DATABASE_URL!);
  t.after(() => db.close());
  const request = db.prepare('SELECT id FROM UpgradeRequest WHERE keyId = ?').get(upgraded.id) as { id: string };
  assert.ok(request, 'the clean upgrade request was stored');
  await refused('decline note', admin, '/support/upgrades', 'app/support/upgrades/actions.ts#declineAction', {
    requestId: request.id,
    note: `use ${pasted} instead`,
  });
  await refused('approve note', admin, '/support/upgrades', 'app/support/upgrades/actions.ts#approveAction', {
    requestId: request.id,
    note: pasted,
  });
  await refused(
    'staff disable reason',
    admin,
    `/support/keys/${staffTarget.id}`,
    'app/support/keys/[id]/actions.ts#switchKeyAction',
    { keyId: staffTarget.id, turn: 'off', reason: pasted },
  );
  await refused(
    'staff settings reason',
    admin,
    `/support/keys/${agent.id}`,
    'app/support/keys/[id]/actions.ts#changeSettingsAction',
    { keyId: agent.id, tierId: 'pro', dailyQuota: '', ratePerSecond: '', expiresOn: '', reason: `per ${pasted}` },
  );
  await refused(
    'staff re-enable reason',
    admin,
    `/support/keys/${cliNamed.id}`,
    'app/support/keys/[id]/actions.ts#switchKeyAction',
    { keyId: cliNamed.id, turn: 'on', reason: `${pasted} was rotated` },
  );
  const leaks = await post(
    'support leak paste',
    admin,
    '/support/leaks',
    'app/support/leaks/actions.ts#bulkDisableAction',
    { confirm: 'yes', text: `token=${bulk.key}`, source: `ticket SUP-42: ${bulk.key} in a gist` },
  );
  assert.match(leaks.text, /"disabled":1/, `the support paste disabled the key:\n${leaks.text.slice(0, 500)}`);
  const search = await post('support search for a secret', admin, '/support', 'app/support/actions.ts#searchAction', {
    q: pasted,
  });
  assert.match(
    String(search.headers['x-action-redirect'] ?? ''),
    /\/support\?match=/,
    'control: a pasted secret still finds its key',
  );
  const signUp = {
    email: 'new-user@example.test',
    name: 'New',
    password: 'a long new password',
    confirm: 'a long new password',
  };
  await post('sign-up name', new CookieJar(), '/signup', 'app/(auth)/actions.ts#signUpAction', {
    ...signUp,
    name: pasted,
  });
  await post('sign-up email', new CookieJar(), '/signup', 'app/(auth)/actions.ts#signUpAction', {
    ...signUp,
    email: `${pasted}@example.test`,
  });
  if ((db.prepare('SELECT count(*) AS n FROM User WHERE email LIKE ?').get('new-user%') as { n: number }).n)
    accepted.push('sign-up name: an account was made');

  // The pages that show the stored text, to their owner and to staff.
  const pages = [
    ['/support/audit', admin],
    [`/support/keys/${reported.id}`, admin],
    [`/support/keys/${bulk.id}`, admin],
    [`/support/keys/${cliNamed.id}`, admin],
    ['/support/upgrades', admin],
    [`/keys/${reported.id}`, dev],
    [`/keys/${cliNamed.id}`, dev],
    ['/keys', dev],
    [`/api/portal/keys/${agent.id}/usage`, dev],
  ] as const;
  for (const [page, jar] of pages) {
    const answer = await webRequest(`${baseUrl}${page}`, { headers: { cookie: jar.header() } });
    assert.equal(answer.status, 200, page);
    keep(`page ${page}`, answer.text);
  }
  const audit = answers.find((a) => a.what === 'page /support/audit')!.text;
  assert.match(audit, /paste\.example/, 'the audit trail still names where the key leaked');

  // The check. Stored text first: every text value of every table.
  const stored: string[] = [];
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  for (const { name } of tables) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string' && containsSecretFragment(value))
          stored.push(`${name}.${column}: ${value.slice(0, 200)}`);
      }
    }
  }
  const kept = db
    .prepare('SELECT reason FROM AuditEvent WHERE keyId = ? AND reason LIKE ?')
    .get(reported.id, '%paste.example%') as { reason: string } | undefined;
  assert.ok(kept, 'the report is on record with its source');
  const callLog = db.prepare('SELECT tool FROM CallLog').all() as { tool: string }[];
  assert.ok(callLog.length >= 3, 'the calls were recorded');

  const output = server.output();
  const banner =
    /^First start: an admin account and a demo key were created\. They are shown only now\.\n(?: {2}.*\n){3}/m.exec(
      output,
    );
  assert.ok(banner?.[0].includes(server.demoKey), 'the first-start banner still shows the demo key');
  const logs = output.slice(0, banner!.index) + output.slice(banner!.index + banner![0].length);
  assert.match(logs, /"msg":"mcp tools\/call"/, 'the calls were logged');

  const found = (text: string) => [...new Set(text.match(FRAGMENTS) ?? [])];
  const problems = [
    ...accepted,
    ...stored.map((s) => `stored: ${s}`),
    ...found(logs).map((f) => `server output: ${f}`),
    ...answers.flatMap(({ what, text }) => found(text).map((f) => `${what}: ${f}`)),
  ];
  assert.deepEqual(
    problems,
    [],
    'every field refused the secret, and no fragment was stored, logged, answered or shown',
  );
  assert.ok(
    audit.includes(`${reported.key.slice(0, 7)}…[redacted]`),
    "the report's source is shown with its secret cut to a display form",
  );
});
