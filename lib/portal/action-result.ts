/**
 * What a server action answers a form: success with an optional message and data, or an error a person
 * can act on. Known refusals (bad input, not found, store rules) become messages; anything else is
 * rethrown, so Next shows the error page and the log gets the details (never the client).
 */

import { UserStoreError } from '../auth/users.ts';
import { KeyStoreError } from '../keys/store.ts';
import { PortalInputError, PortalNotFound } from './access.ts';

export type ActionState<T = object> =
  | ({ ok: true; message?: string } & Partial<T>)
  | { ok: false; error: string }
  | null;

export async function runAction<T extends object>(
  work: () => Promise<{ message?: string } & T>,
): Promise<ActionState<T>> {
  try {
    return { ok: true, ...(await work()) } as ActionState<T>;
  } catch (error) {
    if (
      error instanceof PortalNotFound ||
      error instanceof PortalInputError ||
      error instanceof KeyStoreError ||
      error instanceof UserStoreError
    ) {
      return { ok: false, error: error.message };
    }
    throw error;
  }
}
