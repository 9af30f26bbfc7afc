'use server';
/**
 * The developer's key actions. Thin: portalAction reads the form and establishes who is asking (the
 * session, re-read from the database); the service in lib/portal/keys.ts decides.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { displayKey } from '@/lib/keys/format.ts';
import { disconnectApp } from '@/lib/portal/connected-apps.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { createMyKey, disableMyKey, reissueMyKey, renameMyKey, reportMyKeyLeaked } from '@/lib/portal/keys.ts';

/** A new secret, shown once by the dialog that receives it. */
export interface IssuedSecret {
  keyId: string;
  display: string;
  secret: string;
}

/** The expiry radio's value: "30", "90", "365" or "never"; the service refuses anything else (NaN included). */
const expiryDays = trimmedText.transform((raw): number | null => (raw === 'never' ? null : Number(raw)));

/** An action on one of the developer's keys; `notDone` is what did not happen when the session had ended. */
const onKey = <S extends z.ZodRawShape>(fields: S, notDone: string) => ({
  input: z.object({ keyId: trimmedText, ...fields }),
  access: 'signed-in' as const,
  notDone,
});

function refresh(...keyIds: string[]): void {
  revalidatePath('/keys');
  for (const id of keyIds) revalidatePath(`/keys/${id}`);
}

export const createKeyAction = portalAction(
  {
    input: z.object({ name: trimmedText, expiry: expiryDays }),
    access: 'signed-in',
    notDone: 'the key was not created',
  },
  async ({ name, expiry }, { viewer, actor }): Promise<IssuedSecret> => {
    const { key, secret } = await createMyKey(getDb(), viewer, { name, expiryDays: expiry }, actor);
    refresh();
    return { keyId: key.id, display: displayKey(key), secret };
  },
);

export const renameKeyAction = portalAction(
  onKey({ name: trimmedText }, 'the key was not renamed'),
  async ({ keyId, name }, { viewer, actor }) => {
    const key = await renameMyKey(getDb(), viewer, keyId, name, actor);
    refresh(key.id);
    return { message: `Renamed to "${key.name}".` };
  },
);

export const disableKeyAction = portalAction(
  onKey({ reason: trimmedText }, 'the key was not disabled'),
  async ({ keyId, reason }, { viewer, actor }) => {
    const key = await disableMyKey(getDb(), viewer, keyId, reason || undefined, actor);
    refresh(key.id);
    return { message: 'The key is disabled: calls with it now get 401.' };
  },
);

/** `grace`: when the old secret stops ("none", "1h", "24h", "7d"); the service refuses anything else. */
export const reissueKeyAction = portalAction(
  onKey({ grace: trimmedText }, 'the key was not reissued'),
  async ({ keyId, grace }, { viewer, actor }): Promise<IssuedSecret> => {
    const { key, secret } = await reissueMyKey(getDb(), viewer, keyId, actor, Date.now(), grace);
    refresh(keyId, key.id);
    return { keyId: key.id, display: displayKey(key), secret };
  },
);

export const reportLeakedAction = portalAction(
  onKey({}, 'the key was not disabled and no leak was recorded'),
  async ({ keyId }, { viewer, actor }) => {
    const key = await reportMyKeyLeaked(getDb(), viewer, keyId, actor);
    refresh(key.id);
    return {
      message:
        'Thank you: the key is disabled and the leak is on record. Reissue it to get a new secret with the same settings.',
    };
  },
);

/** Ends one app's connection to a key; the key keeps working for everything else. */
export const disconnectAppAction = portalAction(
  {
    input: z.object({ connectionId: trimmedText }),
    access: 'signed-in',
    notDone: 'the app was not disconnected',
  },
  async ({ connectionId }, { viewer, actor }) => {
    const { keyId, name } = await disconnectApp(getDb(), viewer, connectionId, actor);
    refresh(keyId);
    return { message: `${name} is disconnected: its access to this key ended. The key works on as before.` };
  },
);
