'use server';
/** Staff actions on one key. Thin: the viewer, the actor (with IP), the service, a message. */
import { refresh } from 'next/cache';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { staffChangeSettings, staffDisableKey, staffEnableKey, staffReissueKey } from '@/lib/portal/support.ts';
import { currentActor, requireStaffViewer } from '@/lib/portal/viewer.ts';

async function staff(form: FormData) {
  const keyId = field(form, 'keyId');
  const viewer = await requireStaffViewer(`/support/keys/${encodeURIComponent(keyId)}`);
  return { keyId, viewer, actor: await currentActor(viewer) };
}

/**
 * Disable (turn=off) or re-enable (turn=on). One action for both, because the page swaps one dialog for
 * the other in place and a form keeps the action it was first given.
 */
export async function switchKeyAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { keyId, viewer, actor } = await staff(form);
  const turn = field(form, 'turn');
  const state = await runAction(async () => {
    if (turn === 'off') {
      await staffDisableKey(getDb(), viewer, keyId, field(form, 'reason'), actor);
      return { message: 'Key disabled. Calls with it now get 401.' };
    }
    if (turn === 'on') {
      await staffEnableKey(getDb(), viewer, keyId, field(form, 'reason'), actor);
      return { message: 'Key re-enabled. It works again from the next call.' };
    }
    throw new PortalInputError('Choose whether to disable or re-enable the key.');
  });
  if (state?.ok) refresh();
  return state;
}

export type ReissueResult = { id: string; display: string; secret: string };

/** No refresh here: the page would drop the dialog that shows the new secret; closing it navigates on. */
export async function reissueKeyAction(_previous: ActionState<ReissueResult>, form: FormData): Promise<ActionState<ReissueResult>> {
  const { keyId, viewer, actor } = await staff(form);
  return runAction(() => staffReissueKey(getDb(), viewer, keyId, actor));
}

export async function changeSettingsAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { keyId, viewer, actor } = await staff(form);
  const state = await runAction(async () => {
    const { changed } = await staffChangeSettings(getDb(), viewer, keyId, {
      tierId: field(form, 'tierId'),
      dailyQuota: field(form, 'dailyQuota'),
      ratePerSecond: field(form, 'ratePerSecond'),
      expiresOn: field(form, 'expiresOn'),
      reason: field(form, 'reason'),
    }, actor);
    const labels: Record<string, string> = { tierId: 'tier', dailyQuota: 'daily quota', ratePerSecond: 'per-second limit', expiresAt: 'expiry' };
    return { message: changed.length ? `Saved: ${changed.map((c) => labels[c] ?? c).join(', ')}. /mcp applies it from the next call.` : 'Nothing changed: the key already has these settings.' };
  });
  if (state?.ok) refresh();
  return state;
}
