'use server';
import { getDb } from '@/lib/db/client.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { bulkDisableLeaked, type LeakBulkOutcome } from '@/lib/portal/support.ts';
import { currentActor, requireStaffViewer } from '@/lib/portal/viewer.ts';

export type LeakResult = { outcome: LeakBulkOutcome };

export async function bulkDisableAction(_previous: ActionState<LeakResult>, form: FormData): Promise<ActionState<LeakResult>> {
  const viewer = await requireStaffViewer('/support/leaks');
  const actor = await currentActor(viewer);
  if (form.get('confirm') !== 'yes') return { ok: false, error: 'Tick the confirmation box: every matching key will stop working at once.' };
  // The pasted text is used as is (not trimmed per line): secrets are found anywhere in it.
  const text = typeof form.get('text') === 'string' ? (form.get('text') as string) : '';
  return runAction(async () => ({ outcome: await bulkDisableLeaked(getDb(), viewer, text, field(form, 'source'), actor) }));
}
