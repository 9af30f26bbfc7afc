'use server';
import { refresh } from 'next/cache';
import { getDb } from '@/lib/db/client.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { changeUserRole } from '@/lib/portal/users.ts';
import { currentActor, requireViewer } from '@/lib/portal/viewer.ts';

export async function changeRoleAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireViewer('/admin/users');
  const actor = await currentActor(viewer);
  const state = await runAction(async () => {
    const user = await changeUserRole(getDb(), viewer, field(form, 'userId'), field(form, 'role'), actor);
    return { message: `${user.email} is now ${user.role}.` };
  });
  if (state?.ok) refresh();
  return state;
}
