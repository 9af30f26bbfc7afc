'use server';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { createClientsStore } from '@/lib/oauth/clients.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { decideConsent } from '@/lib/portal/oauth-consent.ts';

/** Allow or Deny: answers where the browser goes next (the app's redirect URI), or why nothing happened. */
export const decideConsentAction = portalAction(
  {
    input: z.object({ request: trimmedText, csrf: trimmedText, decision: trimmedText, key: trimmedText.optional() }),
    access: 'signed-in',
    notDone: 'the app was neither allowed nor denied',
  },
  async (form, { viewer, actor }) => {
    const db = getDb();
    const decided = await decideConsent(db, createClientsStore(db), viewer, form, actor);
    if (!decided.ok) throw new PortalInputError(decided.problem);
    return { redirectTo: decided.redirectTo };
  },
);
