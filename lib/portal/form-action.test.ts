/**
 * The server action wrapper, run for real: forms read with their schema (trimmed or verbatim text, ''
 * for a missing field, a refusal with a message for a post the page could not have sent), and the
 * work's refusals mapped to messages by runAction, with real services on a scratch SQLite database.
 * The session steps need Next's request scope, which a unit test does not have: here they are shown
 * to come after the form is read (a malformed post never reaches them; a well-formed one does, with
 * its signed-out text computed from the input). Who the session lets through is tested over HTTP against
 * the production build: test/system/access-http.test.ts calls every action signed out (answered "You
 * were signed out", nothing changed), as the wrong developer and the wrong role (404 or the not-found message, nothing changed);
 * e2e/developer-keys.test.ts and e2e/support.test.ts use the actions from the browser as the right people.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { createUser } from '../auth/users.ts';
import { PortalNotFound } from './access.ts';
import { type Access, portalAction, publicAction, signedOutRefusal } from './form-action.ts';
import { readForm, trimmedText, UNREADABLE_FORM, verbatimText } from './form-input.ts';
import { renameMyKey } from './keys.ts';

function formOf(fields: [string, string | Blob][]): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

const signUpFields = z.object({ email: trimmedText, password: verbatimText, name: trimmedText });

test('readForm: trimmed and verbatim text, "" for a missing field, the first of repeated names, other names dropped', () => {
  const form = formOf([
    ['email', '  ada@example.test \n'],
    ['password', '  spaces count  '],
    ['email', 'second@example.test'],
    ['$ACTION_KEY', 'k'],
  ]);
  assert.deepEqual(readForm(signUpFields, form), {
    ok: true,
    input: { email: 'ada@example.test', password: '  spaces count  ', name: '' },
  });
});

test('readForm: coercions run on the trimmed text, a missing field included (as the actions did with "")', () => {
  const expiry = z.object({ expiry: trimmedText.transform((raw) => (raw === 'never' ? null : Number(raw))) });
  assert.deepEqual(readForm(expiry, formOf([['expiry', ' 90 ']])), { ok: true, input: { expiry: 90 } });
  assert.deepEqual(readForm(expiry, formOf([['expiry', 'never']])), { ok: true, input: { expiry: null } });
  assert.deepEqual(readForm(expiry, formOf([])), { ok: true, input: { expiry: 0 } });
});

test('readForm: a file where text belongs, or a post that is not a form, is refused with a message naming what to do', () => {
  const withFile = readForm(
    signUpFields,
    formOf([
      ['email', new Blob(['ada@example.test'])],
      ['password', 'a long password'],
    ]),
  );
  assert.deepEqual(withFile, {
    ok: false,
    error: 'This form\'s "email" field could not be read: reload the page and send the form again.',
  });
  for (const notAForm of [undefined, null, 'email=ada@example.test', { email: 'ada@example.test' }, 42]) {
    assert.deepEqual(readForm(signUpFields, notAForm), { ok: false, error: UNREADABLE_FORM }, JSON.stringify(notAForm));
  }
});

test('publicAction: the service gets the parsed input; its refusals are its own messages; a malformed post writes nothing', async (t) => {
  const { db } = await scratchPortal(t);
  const signUp = publicAction(signUpFields, async ({ email, password, name }) => {
    const user = await createUser(db, { email, password, name: name || undefined }, { label: 'self-signup' });
    return { message: `Welcome, ${user.email}.` };
  });

  assert.deepEqual(
    await signUp(
      null,
      formOf([
        ['email', '  Eve@Example.test '],
        ['password', 'a long enough password'],
      ]),
    ),
    { ok: true, message: 'Welcome, eve@example.test.' },
  );

  // The same words the service throws, not a schema's: the form shows what the person must change.
  const tooShort = { email: 'fay@example.test', password: 'short' };
  const serviceSays = await createUser(db, tooShort, { label: 'test' }).then(
    () => assert.fail('a short password is refused'),
    (error: Error) => error.message,
  );
  assert.deepEqual(await signUp(null, formOf(Object.entries(tooShort))), {
    ok: false,
    error: serviceSays,
    field: 'password',
  });

  const users = await db.user.count();
  const answer = await signUp(
    null,
    formOf([
      ['email', 'gus@example.test'],
      ['password', new Blob(['a long enough password'])],
    ]),
  );
  assert.deepEqual(answer, {
    ok: false,
    error: 'This form\'s "password" field could not be read: reload the page and send the form again.',
  });
  assert.deepEqual(await signUp(null, 'not a form' as unknown as FormData), { ok: false, error: UNREADABLE_FORM });
  assert.equal(await db.user.count(), users, 'no account was created by the malformed posts');
});

test('publicAction: not-found refusals become the message; an unexpected failure is rethrown (the error page, the log), never shown', async (t) => {
  const { db, ada, bob, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada, 'ada laptop');
  // A fixed viewer stands in for the session, which needs a request.
  const renameAsBob = publicAction(z.object({ keyId: trimmedText, name: trimmedText }), async ({ keyId, name }) => {
    await renameMyKey(db, bob, keyId, name, actor(bob));
    return {};
  });
  assert.deepEqual(
    await renameAsBob(
      null,
      formOf([
        ['keyId', ` ${key.id} `],
        ['name', 'taken over'],
      ]),
    ),
    { ok: false, error: 'No such key among yours.' },
  );
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).name, 'ada laptop');

  const broken = publicAction(z.object({}), async () => {
    throw new Error('the database went away');
  });
  await assert.rejects(broken(null, formOf([])), /the database went away/);
});

test('portalAction: a malformed post is refused before the session is read, for every access', async () => {
  for (const access of ['signed-in', 'staff', 'admin'] as Access[]) {
    let reached = false;
    const action = portalAction(
      {
        input: z.object({ keyId: trimmedText }),
        access,
        notDone: () => {
          reached = true;
          return 'nothing was done';
        },
      },
      async () => {
        reached = true;
        return {};
      },
    );
    // Outside a request: had it read the session, Next would have thrown instead of answering.
    assert.deepEqual(
      await action(null, formOf([['keyId', new Blob(['x'])]])),
      { ok: false, error: 'This form\'s "keyId" field could not be read: reload the page and send the form again.' },
      access,
    );
    assert.deepEqual(
      await action(null, undefined as unknown as FormData),
      { ok: false, error: UNREADABLE_FORM },
      access,
    );
    assert.equal(reached, false, `${access}: neither the signed-out text nor the work ran`);
  }
});

test('portalAction: a well-formed post computes what a signed-out answer would say from the parsed input, then reads the session (which needs a request) before any work', async () => {
  for (const access of ['signed-in', 'staff', 'admin'] as Access[]) {
    const seen: unknown[] = [];
    let worked = false;
    const action = portalAction(
      {
        input: z.object({ keyId: trimmedText, name: trimmedText }),
        access,
        notDone: (input) => {
          seen.push(input);
          return `the key ${input.keyId} was not renamed`;
        },
      },
      async () => {
        worked = true;
        return {};
      },
    );
    await assert.rejects(
      action(
        null,
        formOf([
          ['keyId', ' k1 '],
          ['name', ' laptop '],
        ]),
      ),
      /outside a request scope/,
      access,
    );
    assert.deepEqual(seen, [{ keyId: 'k1', name: 'laptop' }], access);
    assert.equal(worked, false, `${access}: no work without a viewer`);
  }
});

test('signedOutRefusal: says the session ended and what did not happen, marked so the form offers sign-in', () => {
  assert.deepEqual(signedOutRefusal('the key was not disabled'), {
    ok: false,
    signedOut: true,
    error: 'You were signed out; the key was not disabled.',
  });
});

test('a refusal about one field names it, so the form shows the message there; others are for the whole form', async (t) => {
  const { db } = await scratchPortal(t);
  const signUp = publicAction(signUpFields, async ({ email, password, name }) => {
    await createUser(db, { email, password, name: name || undefined }, { label: 'test' });
    return {};
  });
  const refused = async (fields: [string, string][]) => signUp(null, formOf(fields));
  assert.deepEqual(
    await refused([
      ['email', 'not an address'],
      ['password', 'a long enough password'],
    ]),
    {
      ok: false,
      error: '"not an address" is not an email address.',
      field: 'email',
    },
  );
  assert.deepEqual(
    await refused([
      ['email', 'hal@example.test'],
      ['name', 'x'.repeat(101)],
      ['password', 'a long enough password'],
    ]),
    {
      ok: false,
      error: 'Keep the name under 100 characters.',
      field: 'name',
    },
  );
  const notFound = publicAction(z.object({}), async () => {
    throw new PortalNotFound();
  });
  assert.deepEqual(await notFound(null, formOf([])), {
    ok: false,
    error: 'That page does not exist, or you do not have access to it.',
  });
});
