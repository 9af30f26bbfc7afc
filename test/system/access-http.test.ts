/**
 * Role and ownership checks over HTTP, against the real production server: every server action of the
 * build, every restricted page and every portal JSON route is called as the wrong person (signed out,
 * a developer for staff things, another developer for someone's key, support for admin things), and
 * answers as docs/portal.md "Roles" says (sign-in for the signed out, the same 404 as a missing page otherwise;
 * 401 for the metrics token), with nothing changed in the database. The list of actions comes from
 * Next's build manifest: a new action fails this test until it is listed here with its wrong callers.
 * (The service-level matrices in lib/portal/*.test.ts check the same decisions in depth.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  CookieJar,
  callServerAction,
  formOf,
  serverActionIds,
  signInWithForm,
  type WebAnswer,
  webRequest,
} from '../support/web-client.ts';

const PASSWORD = 'a long access test password';
const METRICS_TOKEN = 'access-test-metrics-token';

type Who = 'anonymous' | 'ada' | 'bob' | 'grace' | 'admin';

let server: TestServer;
let db: Db;
const jars = {} as Record<Who, CookieJar>;
const ids = {} as Record<'ada' | 'bob' | 'grace', string>;
/** Ada's key (a developer's), its secret, and her pending upgrade request for it. */
let adaKey: { id: string; key: string; name: string };
let requestId: string;
/** A WeChat follower bound to Ada. */
let adaBinding: string;
/** An app connected to Ada's key, and an authorization request with the consent form Ada's page gives her. */
let adaConnection: string;
let consent: { request: string; csrf: string };

before(async () => {
  server = await startTestServer({ METRICS_TOKEN });
  db = createDb(server.env.DATABASE_URL);
  const people = { ada: 'developer', bob: 'developer', grace: 'support' } as const;
  for (const [name, role] of Object.entries(people))
    server.cliOk('user', 'create', '--email', `${name}@example.test`, '--password', PASSWORD, '--role', role);
  for (const name of Object.keys(people) as (keyof typeof people)[]) {
    jars[name] = (await signInWithForm(server.baseUrl, `${name}@example.test`, PASSWORD)).jar;
    ids[name] = (await db.user.findUniqueOrThrow({ where: { email: `${name}@example.test` } })).id;
  }
  jars.admin = (await signInWithForm(server.baseUrl, server.adminEmail, server.adminPassword!)).jar;
  jars.anonymous = new CookieJar();
  adaBinding = (await db.channelBinding.create({ data: { channel: 'wechat', externalId: 'o-ada', userId: ids.ada } }))
    .id;
  adaKey = {
    ...JSON.parse(server.cliOk('key', 'create', '--owner', 'ada@example.test', '--name', 'ada laptop', '--json')),
    name: 'ada laptop',
  };

  adaConnection = await connectAppToAdaKey();
  consent = await consentFormOfAda();

  // Ada asks for Pro the way the page does: the right person, so it works (and proves the call is well formed).
  const asked = await act('app/upgrade/actions.ts#requestUpgradeAction', 'ada', '/upgrade', {
    keyId: adaKey.id,
    useCase: 'Screening solvents for a pilot plant.',
    expectedDailyCalls: '20000',
    contact: 'ada@example.test',
  });
  assert.match(String(asked.headers['x-action-redirect']), /\/upgrade\?sent=1/);
  requestId = (await db.upgradeRequest.findFirstOrThrow({ where: { keyId: adaKey.id } })).id;
});
after(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const REDIRECT = 'http://127.0.0.1:43210/callback';

/** An app registered as clients register, connected to Ada's key (the row the token endpoint writes). */
async function connectAppToAdaKey(): Promise<string> {
  const registered = await fetch(`${server.baseUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Access Agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const connection = await db.oAuthConnection.create({
    data: {
      clientId: client_id,
      keyId: adaKey.id,
      userId: ids.ada,
      resource: `${server.baseUrl}/mcp`,
      refreshHash: 'access-test-connection',
      refreshExpiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return connection.id;
}

/** A real authorization request (from /authorize) and the anti-forgery token Ada's consent page holds for it. */
async function consentFormOfAda(): Promise<{ request: string; csrf: string }> {
  const { clientId } = await db.oAuthConnection.findUniqueOrThrow({ where: { id: adaConnection } });
  const authorize = new URL(`${server.baseUrl}/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  const location = (await fetch(authorize, { redirect: 'manual' })).headers.get('location') ?? '';
  const page = await webRequest(server.baseUrl + location, { headers: { cookie: jars.ada.header() } });
  const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(page.text)?.[1];
  assert.ok(csrf, `Ada's consent page holds its form token (${page.status})`);
  return { request: new URL(location, server.baseUrl).searchParams.get('request') ?? '', csrf };
}

let actionIds: Map<string, string> | undefined;

async function act(action: string, who: Who, page: string, fields: Record<string, string>): Promise<WebAnswer> {
  actionIds ??= serverActionIds();
  const actionId = actionIds.get(action);
  assert.ok(actionId, `${action} is in the build`);
  return callServerAction(server.baseUrl, { page, actionId, args: [null, formOf(fields)], jar: jars[who] });
}

/**
 * docs/portal.md "Roles": signed out, the action answers "You were signed out; … was not …" (the form
 * offers sign-in; no redirect); signed in without the right, the same 404 as a missing page.
 */
function assertRefused(answer: WebAnswer, who: Who, what: string): void {
  if (who === 'anonymous') {
    assert.equal(answer.headers['x-action-redirect'], undefined, `${what}: answered in place, not redirected`);
    assert.match(
      answer.text,
      /"ok":false,"signedOut":true,"error":"You were signed out; [^"]+\."/,
      `${what}: says the session ended and what did not happen (answer ${answer.status}: ${answer.text.slice(0, 200)})`,
    );
    return;
  }
  assert.equal(answer.headers['x-action-revalidated'], undefined, `${what}: nothing revalidated`);
  assert.match(
    answer.text,
    /NEXT_HTTP_ERROR_FALLBACK;404|"ok":false,"error":"(That page does not exist, or you do not have access to it\.|No such key among yours\.|No such connected app among yours\.|This form was not made for your session\. Open the connection page again\.|That follower is not bound to your account \(any more\); reload the page\.)"/,
    `${what}: refused as not found`,
  );
}

interface WrongCall {
  who: Who;
  page: string;
  fields: Record<string, string>;
}

interface ActionCase {
  /** Who calls it, where from, with what; each must be refused. */
  wrong: () => WrongCall[];
  /** What it would change: must read the same before and after the wrong calls. */
  state: () => Promise<unknown>;
}

const adaKeyState = () =>
  db.apiKey.findUniqueOrThrow({
    where: { id: adaKey.id },
    select: { name: true, tierId: true, dailyQuota: true, disabledAt: true, replacedById: true },
  });
const keyCount = () => db.apiKey.count();
/** A developer's key form on its page: signed out, another developer, and support (staff use the console). */
const ownerForms =
  (fields: () => Record<string, string>): (() => WrongCall[]) =>
  () =>
    (['anonymous', 'bob', 'grace'] as const).map((who) => ({ who, page: `/keys/${adaKey.id}`, fields: fields() }));
/** A staff form: signed out, the key's own developer, and another developer. */
const staffForms =
  (fields: () => Record<string, string>, page: () => string): (() => WrongCall[]) =>
  () =>
    (['anonymous', 'ada', 'bob'] as const).map((who) => ({ who, page: page(), fields: fields() }));

/** Every server action: its wrong callers and what they must not change. */
const ACTIONS: Record<string, ActionCase> = {
  'app/account/actions.ts#changePasswordAction': {
    // Only the signed-in user's own password can change (no user id is taken from the form).
    wrong: () => [
      {
        who: 'anonymous',
        page: '/account',
        fields: { current: PASSWORD, next: 'a new long password', confirm: 'a new long password' },
      },
    ],
    state: () => db.user.findMany({ select: { id: true, passwordHash: true }, orderBy: { id: 'asc' } }),
  },
  'app/account/actions.ts#bindCodeAction': {
    // Anyone signed in gets a code for their own account (no user id is taken from the form): only the signed out are refused.
    wrong: () => [{ who: 'anonymous', page: '/account', fields: {} }],
    state: () => db.channelBindCode.findMany({ orderBy: { codeHash: 'asc' } }),
  },
  'app/account/actions.ts#unbindAction': {
    // Only the developer a follower is bound to may unbind it; staff too get "not bound to your account".
    wrong: () =>
      (['anonymous', 'bob', 'grace', 'admin'] as const).map((who) => ({
        who,
        page: '/account',
        fields: { bindingId: adaBinding },
      })),
    state: () => db.channelBinding.findMany({ orderBy: { id: 'asc' } }),
  },
  'app/admin/users/actions.ts#changeRoleAction': {
    wrong: () =>
      (['anonymous', 'ada', 'grace'] as const).map((who) => ({
        who,
        page: '/admin/users',
        fields: { userId: ids.bob, role: 'admin' },
      })),
    state: () => db.user.findMany({ select: { id: true, role: true }, orderBy: { id: 'asc' } }),
  },
  'app/keys/actions.ts#createKeyAction': {
    wrong: () => [{ who: 'anonymous', page: '/keys', fields: { name: 'anonymous key', expiry: '30' } }],
    state: keyCount,
  },
  'app/keys/actions.ts#disconnectAppAction': {
    wrong: ownerForms(() => ({ connectionId: adaConnection })),
    state: () => db.oAuthConnection.findUniqueOrThrow({ where: { id: adaConnection }, select: { endedAt: true } }),
  },
  'app/keys/actions.ts#renameKeyAction': {
    wrong: ownerForms(() => ({ keyId: adaKey.id, name: 'renamed by someone else' })),
    state: adaKeyState,
  },
  'app/keys/actions.ts#disableKeyAction': {
    wrong: ownerForms(() => ({ keyId: adaKey.id, reason: 'not yours' })),
    state: adaKeyState,
  },
  'app/keys/actions.ts#reissueKeyAction': {
    wrong: ownerForms(() => ({ keyId: adaKey.id })),
    state: async () => [await adaKeyState(), await keyCount()],
  },
  'app/keys/actions.ts#reportLeakedAction': {
    wrong: ownerForms(() => ({ keyId: adaKey.id })),
    state: async () => [await adaKeyState(), await db.auditEvent.count()],
  },
  'app/support/actions.ts#searchAction': {
    // A search changes nothing; a refused one must not reveal the key (its id is the redirect target).
    wrong: staffForms(
      () => ({ q: adaKey.key }),
      () => '/support',
    ),
    state: async () => null,
  },
  'app/support/keys/[id]/actions.ts#switchKeyAction': {
    wrong: staffForms(
      () => ({ keyId: adaKey.id, turn: 'off', reason: 'not staff' }),
      () => `/support/keys/${adaKey.id}`,
    ),
    state: adaKeyState,
  },
  'app/support/keys/[id]/actions.ts#reissueKeyAction': {
    wrong: staffForms(
      () => ({ keyId: adaKey.id }),
      () => `/support/keys/${adaKey.id}`,
    ),
    state: async () => [await adaKeyState(), await keyCount()],
  },
  'app/support/keys/[id]/actions.ts#changeSettingsAction': {
    wrong: staffForms(
      () => ({
        keyId: adaKey.id,
        tierId: 'pro',
        dailyQuota: '999999',
        ratePerSecond: '',
        expiresOn: '',
        reason: 'not staff',
      }),
      () => `/support/keys/${adaKey.id}`,
    ),
    state: adaKeyState,
  },
  'app/support/leaks/actions.ts#bulkDisableAction': {
    wrong: staffForms(
      () => ({ text: adaKey.key, source: 'a paste', confirm: 'yes' }),
      () => '/support/leaks',
    ),
    state: adaKeyState,
  },
  'app/support/upgrades/actions.ts#approveAction': {
    wrong: staffForms(
      () => ({ requestId, note: 'self-approved' }),
      () => '/support/upgrades',
    ),
    state: async () => [await db.upgradeRequest.findUniqueOrThrow({ where: { id: requestId } }), await adaKeyState()],
  },
  'app/support/upgrades/actions.ts#declineAction': {
    wrong: staffForms(
      () => ({ requestId, note: 'declined by a non-staff user' }),
      () => '/support/upgrades',
    ),
    state: () => db.upgradeRequest.findUniqueOrThrow({ where: { id: requestId } }),
  },
  'app/oauth/consent/actions.ts#decideConsentAction': {
    // Ada's own form, sent signed out or from another account: no code, no key.
    wrong: () =>
      (['anonymous', 'bob'] as const).map((who) => ({
        who,
        page: `/oauth/consent?request=${consent.request}`,
        fields: { ...consent, decision: 'allow', key: 'new' },
      })),
    state: async () => [await db.oAuthCode.count(), await keyCount()],
  },
  'app/upgrade/actions.ts#requestUpgradeAction': {
    wrong: () =>
      (['anonymous', 'bob'] as const).map((who) => ({
        who,
        page: '/upgrade',
        fields: {
          keyId: adaKey.id,
          useCase: 'Not my key.',
          expectedDailyCalls: '20000',
          contact: `${who}@example.test`,
        },
      })),
    state: () => db.upgradeRequest.count(),
  },
};

/**
 * Act before there is a viewer, by nature: sign-up, sign-in, sign-out, and the sign-in page's inline
 * "Sign in with GitHub" action. Their cross-site forgery is refused in test/system/csrf.test.ts.
 */
const PUBLIC_ACTIONS = new Set([
  'app/(auth)/actions.ts#signInAction',
  'app/(auth)/actions.ts#signUpAction',
  'app/(auth)/actions.ts#signOutAction',
  'app/(auth)/signin/page.tsx#$$RSC_SERVER_ACTION_0',
]);

describe('server actions called as the wrong person', () => {
  it('every server action of the build is listed here, with its wrong callers, or is public', () => {
    const built = [...serverActionIds().keys()].sort();
    assert.deepEqual(built, [...Object.keys(ACTIONS), ...PUBLIC_ACTIONS].sort());
  });

  for (const [action, { wrong, state }] of Object.entries(ACTIONS)) {
    it(`${action}: every wrong caller is refused and nothing changes`, async () => {
      const calls = wrong();
      assert.ok(calls.length > 0);
      const before = JSON.stringify(await state());
      for (const call of calls) {
        const answer = await act(action, call.who, call.page, call.fields);
        assertRefused(answer, call.who, `${action} as ${call.who}`);
        if (!Object.values(call.fields).includes(adaKey.id)) {
          const shown = answer.text + String(answer.headers['x-action-redirect'] ?? '');
          assert.ok(!shown.includes(adaKey.id), `${action} as ${call.who}: the answer does not reveal the key`);
        }
      }
      assert.equal(JSON.stringify(await state()), before, `${action}: nothing changed`);
    });
  }

  it('control: the right people can do what the others could not', async () => {
    const renamed = await act('app/keys/actions.ts#renameKeyAction', 'ada', `/keys/${adaKey.id}`, {
      keyId: adaKey.id,
      name: 'ada laptop 2',
    });
    assert.match(renamed.text, /"ok":true/);
    const settings = await act(
      'app/support/keys/[id]/actions.ts#changeSettingsAction',
      'grace',
      `/support/keys/${adaKey.id}`,
      {
        keyId: adaKey.id,
        tierId: 'free',
        dailyQuota: '500',
        ratePerSecond: '',
        expiresOn: '',
        reason: 'support ticket SUP-42',
      },
    );
    assert.match(settings.text, /"ok":true/);
    const roles = await act('app/admin/users/actions.ts#changeRoleAction', 'admin', '/admin/users', {
      userId: ids.bob,
      role: 'support',
    });
    assert.match(roles.text, /"ok":true/);
    const key = await adaKeyState();
    assert.deepEqual([key.name, key.dailyQuota], ['ada laptop 2', 500]);
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: ids.bob } })).role, 'support');
    server.cliOk('user', 'role', '--email', 'bob@example.test', '--role', 'developer');
  });
});

describe('pages called as the wrong person', () => {
  const ownerPage = () => `/keys/${adaKey.id}`;
  const staffPages = () => [
    '/support',
    '/support/audit',
    `/support/keys/${adaKey.id}`,
    '/support/leaks',
    '/support/upgrades',
  ];
  const signedInPages = () => ['/keys', '/usage', ownerPage(), '/upgrade', '/account', ...staffPages(), '/admin/users'];

  const get = (path: string, who: Who) =>
    webRequest(server.baseUrl + path, { headers: { cookie: jars[who].header() } });

  it('signed out, every portal page sends the visitor to sign in and back', async () => {
    for (const path of signedInPages()) {
      const answer = await get(path, 'anonymous');
      assert.equal(answer.status, 307, path);
      const target = new URL(String(answer.headers.location), server.baseUrl);
      assert.equal(target.pathname, '/signin', path);
      assert.equal(target.searchParams.get('next'), path, path);
    }
  });

  it("a developer gets 404 for staff pages, the admin page and another developer's key; support gets 404 for the admin page and keys not theirs", async () => {
    const refusals: [Who, string[]][] = [
      ['bob', [ownerPage(), ...staffPages(), '/admin/users']],
      ['ada', [...staffPages(), '/admin/users']],
      ['grace', ['/admin/users', ownerPage()]],
    ];
    for (const [who, paths] of refusals) {
      for (const path of paths) {
        const answer = await get(path, who);
        assert.equal(answer.status, 404, `${path} as ${who}`);
        if (who !== 'ada')
          assert.ok(
            !answer.text.includes(adaKey.name) && !answer.text.includes('ada@example.test'),
            `${path} as ${who}: nothing of Ada's is shown`,
          );
      }
    }
  });

  it('control: the same pages open for the right people', async () => {
    const allowed: [Who, string[]][] = [
      ['ada', [ownerPage(), '/usage']],
      ['grace', staffPages()],
      ['admin', ['/admin/users', ...staffPages()]],
    ];
    for (const [who, paths] of allowed) {
      for (const path of paths) assert.equal((await get(path, who)).status, 200, `${path} as ${who}`);
    }
  });
});

describe('JSON routes called as the wrong person', () => {
  const get = (path: string, who: Who, headers: Record<string, string> = {}) =>
    webRequest(server.baseUrl + path, { headers: { cookie: jars[who].header(), ...headers } });

  it("a key's live usage: the owner's route answers only the owner, the support route only staff; all others get the same 404", async () => {
    const mine = `/api/portal/keys/${adaKey.id}/usage`;
    const staff = `/api/support/keys/${adaKey.id}/usage`;
    const cases: [string, Who, number][] = [
      [mine, 'anonymous', 404],
      [mine, 'bob', 404],
      [mine, 'grace', 404],
      [mine, 'admin', 404],
      [mine, 'ada', 200],
      [staff, 'anonymous', 404],
      [staff, 'ada', 404],
      [staff, 'bob', 404],
      [staff, 'grace', 200],
      [staff, 'admin', 200],
    ];
    for (const [path, who, status] of cases) {
      const answer = await get(path, who);
      assert.equal(answer.status, status, `${path} as ${who}`);
      assert.equal(answer.headers['cache-control'], 'no-store');
      if (status === 200) {
        assert.equal(JSON.parse(answer.text).id, adaKey.id, `${path} as ${who}`);
        continue;
      }
      // The same answer this caller gets for a key that does not exist: ids cannot be probed.
      const missing = await get(path.replace(adaKey.id, 'no-such-key'), who);
      assert.deepEqual([missing.status, missing.text], [404, answer.text], `${path} as ${who}`);
    }
  });

  it("a key's call-log CSV: the owner's route answers only the owner, the support route only staff; signed out gets 401, all others the same 404", async () => {
    const mine = `/api/portal/keys/${adaKey.id}/calls.csv?range=30`;
    const staff = `/api/support/keys/${adaKey.id}/calls.csv?range=30`;
    const cases: [string, Who, number][] = [
      [mine, 'anonymous', 401],
      [mine, 'bob', 404],
      [mine, 'grace', 404],
      [mine, 'admin', 404],
      [mine, 'ada', 200],
      [staff, 'anonymous', 401],
      [staff, 'ada', 404],
      [staff, 'bob', 404],
      [staff, 'grace', 200],
      [staff, 'admin', 200],
    ];
    for (const [path, who, status] of cases) {
      const answer = await get(path, who);
      assert.equal(answer.status, status, `${path} as ${who}`);
      assert.equal(answer.headers['cache-control'], 'no-store');
      if (status === 200) {
        assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8', `${path} as ${who}`);
        assert.ok(
          answer.text.startsWith('\uFEFFtime (UTC),tool,outcome,error code,latency ms,key\r\n'),
          `${path} as ${who}`,
        );
        continue;
      }
      // The same answer this caller gets for a key that does not exist: ids cannot be probed.
      const missing = await get(path.replace(adaKey.id, 'no-such-key'), who);
      assert.deepEqual([missing.status, missing.text], [status, answer.text], `${path} as ${who}`);
    }
  });

  it('/api/metrics wants its token: none, a wrong one, or a portal session (even the admin’s) get 401', async () => {
    const cases: [Who, Record<string, string>][] = [
      ['anonymous', {}],
      ['anonymous', { authorization: 'Bearer wrong' }],
      ['admin', {}],
      ['admin', { authorization: `Bearer ${adaKey.key}` }],
    ];
    for (const [who, headers] of cases) {
      const answer = await get('/api/metrics', who, headers);
      assert.equal(answer.status, 401, `${who} ${JSON.stringify(headers)}`);
      assert.doesNotMatch(answer.text, /chemflow_/);
    }
    assert.equal(
      (await get('/api/metrics', 'anonymous', { authorization: `Bearer ${METRICS_TOKEN}` })).status,
      200,
      'control: the token opens it',
    );
  });
});
