'use server';
/** The account page's action: the service in lib/portal/account.ts checks and changes the password. */
import { getDb } from '@/lib/db/client.ts';
import { changeMyPassword } from '@/lib/portal/account.ts';
import { runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { currentActor, requireViewer } from '@/lib/portal/viewer.ts';

/** Passwords are taken as typed (no trimming: spaces may be part of them). */
const secretField = (form: FormData, name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');

export async function changePasswordAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireViewer('/account');
  const actor = await currentActor(viewer);
  return runAction(async () => {
    await changeMyPassword(getDb(), viewer, { current: secretField(form, 'current'), next: secretField(form, 'next'), confirm: secretField(form, 'confirm') }, actor);
    return { message: 'Password changed. Use the new one next time you sign in.' };
  });
}
