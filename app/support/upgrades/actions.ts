'use server';
import { refresh } from 'next/cache';
import { getDb } from '@/lib/db/client.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { approveUpgrade, declineUpgrade } from '@/lib/portal/upgrades.ts';
import { currentActor, requireStaffViewer } from '@/lib/portal/viewer.ts';

export async function approveAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireStaffViewer('/support/upgrades');
  const actor = await currentActor(viewer);
  const state = await runAction(async () => {
    const outcome = await approveUpgrade(getDb(), viewer, field(form, 'requestId'), field(form, 'note'), actor);
    const notes = [
      outcome.followedReissue ? `the key was reissued, so its successor ${outcome.display} got Pro` : `${outcome.display} is now Pro`,
      outcome.alreadyPro ? 'it was already Pro' : '',
      outcome.disabled ? 'it is disabled; it keeps Pro if re-enabled' : '',
    ].filter(Boolean);
    return { message: `Approved: ${notes.join('; ')}.` };
  });
  if (state?.ok) refresh();
  return state;
}

export async function declineAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireStaffViewer('/support/upgrades');
  const state = await runAction(async () => {
    await declineUpgrade(getDb(), viewer, field(form, 'requestId'), field(form, 'note'));
    return { message: 'Declined; the developer sees your note on their Upgrade page.' };
  });
  if (state?.ok) refresh();
  return state;
}
