/**
 * What a server action answers a form: success with an optional message and data, or an error a person
 * can act on. Known refusals (bad input, not found, store rules) become messages; anything else is
 * rethrown, so Next shows the error page and the log gets the details (never the client).
 */

import { UserStoreError } from '../auth/users.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { PortalInputError, PortalNotFound } from './access.ts';

/**
 * A refusal: `field` names the form field the message is about (the form shows it there and moves the
 * focus to it); `signedOut` says the session had ended, so nothing was done and the person signs in again.
 */
export type ActionRefusal = { ok: false; error: string; field?: string; signedOut?: true };

export type ActionState<T = object> = ({ ok: true; message?: string } & Partial<T>) | ActionRefusal | null;

export async function runAction<T extends object>(
  work: () => Promise<{ message?: string } & T>,
): Promise<ActionState<T>> {
  try {
    return { ok: true, ...(await work()) } as ActionState<T>;
  } catch (error) {
    if (error instanceof PortalInputError || error instanceof UserStoreError) {
      return error.field
        ? { ok: false, error: error.message, field: error.field }
        : { ok: false, error: error.message };
    }
    if (error instanceof PortalNotFound || error instanceof KeyStoreError) {
      return { ok: false, error: error.message };
    }
    throw error;
  }
}
