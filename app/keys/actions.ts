'use server';
/**
 * The developer's key actions. Thin: who is asking (the session, re-read from the database), what they
 * typed (coerced from FormData, never trusted), then the service in lib/portal/keys.ts decides.
 */
import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client.ts';
import { displayKey } from '@/lib/keys/format.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { createMyKey, disableMyKey, renameMyKey, reissueMyKey, reportMyKeyLeaked } from '@/lib/portal/keys.ts';
import { currentActor, requireViewer } from '@/lib/portal/viewer.ts';

/** A new secret, shown once by the dialog that receives it. */
export interface IssuedSecret {
  keyId: string;
  display: string;
  secret: string;
}

/** The expiry radio's value: "30", "90", "365" or "never"; the service refuses anything else (NaN included). */
const expiryDays = (raw: string): number | null => (raw === 'never' ? null : Number(raw));

function refresh(...keyIds: string[]): void {
  revalidatePath('/keys');
  for (const id of keyIds) revalidatePath(`/keys/${id}`);
}

export async function createKeyAction(_previous: ActionState<IssuedSecret>, form: FormData): Promise<ActionState<IssuedSecret>> {
  const viewer = await requireViewer('/keys');
  const actor = await currentActor(viewer);
  return runAction(async () => {
    const { key, secret } = await createMyKey(getDb(), viewer, { name: field(form, 'name'), expiryDays: expiryDays(field(form, 'expiry')) }, actor);
    refresh();
    return { keyId: key.id, display: displayKey(key), secret };
  });
}

export async function renameKeyAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const keyId = field(form, 'keyId');
  const viewer = await requireViewer(`/keys/${encodeURIComponent(keyId)}`);
  const actor = await currentActor(viewer);
  return runAction(async () => {
    const key = await renameMyKey(getDb(), viewer, keyId, field(form, 'name'), actor);
    refresh(key.id);
    return { message: `Renamed to "${key.name}".` };
  });
}

export async function disableKeyAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const keyId = field(form, 'keyId');
  const viewer = await requireViewer(`/keys/${encodeURIComponent(keyId)}`);
  const actor = await currentActor(viewer);
  return runAction(async () => {
    const key = await disableMyKey(getDb(), viewer, keyId, field(form, 'reason') || undefined, actor);
    refresh(key.id);
    return { message: 'The key is disabled: calls with it now get 401.' };
  });
}

export async function reissueKeyAction(_previous: ActionState<IssuedSecret>, form: FormData): Promise<ActionState<IssuedSecret>> {
  const keyId = field(form, 'keyId');
  const viewer = await requireViewer(`/keys/${encodeURIComponent(keyId)}`);
  const actor = await currentActor(viewer);
  return runAction(async () => {
    const { key, secret } = await reissueMyKey(getDb(), viewer, keyId, actor);
    refresh(keyId, key.id);
    return { keyId: key.id, display: displayKey(key), secret };
  });
}

export async function reportLeakedAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const keyId = field(form, 'keyId');
  const viewer = await requireViewer(`/keys/${encodeURIComponent(keyId)}`);
  const actor = await currentActor(viewer);
  return runAction(async () => {
    const key = await reportMyKeyLeaked(getDb(), viewer, keyId, actor);
    refresh(key.id);
    return { message: 'Thank you: the key is disabled and the leak is on record. Reissue it to get a new secret with the same settings.' };
  });
}
