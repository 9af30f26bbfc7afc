/**
 * Every portal server action is built here, so none can skip a step: read the form with its schema
 * (form-input.ts), establish the signed-in viewer (viewer.ts), let only the right role past, build the
 * audit actor, then run the work with runAction's mapping of known refusals to messages. A session that
 * has ended (signed out elsewhere, expired) is answered, not redirected: the form says what did not
 * happen and offers sign-in, so the page and what was typed stay where they are. The work
 * calls a service in lib/portal/, which decides (and checks the role again, where the access matrices
 * test it). Sign-up and sign-in have no viewer yet: publicAction reads and maps the same way.
 */

import { notFound } from 'next/navigation';
import type { z } from 'zod';
import type { Actor } from '../audit/write.ts';
import { assertAdmin, isStaff, NEW_PASSWORD_FIRST, NEW_PASSWORD_PATH, type Viewer } from './access.ts';
import { type ActionRefusal, type ActionState, runAction } from './action-result.ts';
import { type FormSchema, readForm } from './form-input.ts';
import { currentActor, currentViewer } from './viewer.ts';

/** What a form's useActionState calls: the previous answer and the form, to the next answer. */
type FormAction<T extends object> = (previous: ActionState<T>, form: FormData) => Promise<ActionState<T>>;

/** What the work gives back on success: an optional message for the form, and data (a new secret…). */
type Done<T extends object> = { message?: string } & T;

/** The answer's data; a work that always redirects (Promise<never>) answers like one without data. */
type Data<T extends object> = [T] extends [never] ? object : T;

/**
 * Who may call an action. Signed out, everyone gets the signed-out answer. A signed-in caller without the
 * role is refused as today: staff actions answer Next's 404, as the staff pages do; the admin action
 * answers the admin services' own refusal (the words of a missing page), as the admin page turns into 404.
 */
export type Access = 'signed-in' | 'staff' | 'admin';

interface PortalActionRule<S extends FormSchema> {
  /** The form's fields (shape only: the service decides what is acceptable, and says why not). */
  input: S;
  access: Access;
  /** What did not happen when the session had ended, e.g. "the key was not disabled" (from the input when it depends on it). */
  notDone: string | ((input: z.output<S>) => string);
  /** The one action an account that must replace its password may take: replacing it. */
  setsNewPassword?: true;
}

/** The answer to a form sent after the session ended: what did not happen; the form offers sign-in. */
export function signedOutRefusal(notDone: string): ActionRefusal {
  return { ok: false, signedOut: true, error: `You were signed out; ${notDone}.` };
}

export function portalAction<S extends FormSchema, T extends object>(
  rule: PortalActionRule<S>,
  work: (input: z.output<S>, caller: { viewer: Viewer; actor: Actor }) => Promise<Done<T>>,
): FormAction<Data<T>> {
  return async (_previous, form) => {
    // A form that cannot be read is refused before the session is read: nothing is looked up or changed.
    const read = readForm(rule.input, form);
    if (!read.ok) return { ok: false, error: read.error };
    const notDone = typeof rule.notDone === 'function' ? rule.notDone(read.input) : rule.notDone;
    const viewer = await currentViewer();
    if (!viewer) return signedOutRefusal(notDone);
    if (viewer.mustChangePassword && !rule.setsNewPassword)
      return { ok: false, error: `${NEW_PASSWORD_FIRST} (${NEW_PASSWORD_PATH}); ${notDone}.` };
    if (rule.access === 'staff' && !isStaff(viewer)) notFound();
    const actor = await currentActor(viewer);
    return runAction(async () => {
      if (rule.access === 'admin') assertAdmin(viewer);
      return work(read.input, { viewer, actor });
    });
  };
}

/** An action for people who are not signed in (sign-up, sign-in): the form and the refusals, no viewer. */
export function publicAction<S extends FormSchema, T extends object>(
  input: S,
  work: (input: z.output<S>) => Promise<Done<T>>,
): FormAction<Data<T>> {
  return async (_previous, form) => {
    const read = readForm(input, form);
    if (!read.ok) return { ok: false, error: read.error };
    return runAction(() => work(read.input));
  };
}
