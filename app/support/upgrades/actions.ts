'use server';
import { refresh } from 'next/cache';
import { after } from 'next/server';
import { z } from 'zod';
import { announceDecision } from '@/lib/channels/notify.ts';
import { getDb } from '@/lib/db/client.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { approveUpgrade, declineUpgrade } from '@/lib/portal/upgrades.ts';

const decision = (notDone: string) =>
  ({ input: z.object({ requestId: trimmedText, note: trimmedText }), access: 'staff', notDone }) as const;

export const approveAction = portalAction(
  decision('the request was not approved'),
  async ({ requestId, note }, { viewer, actor }) => {
    const outcome = await approveUpgrade(getDb(), viewer, requestId, note, actor);
    // Followers bound in a messaging app are told once the answer is on its way; a slow platform never holds it up.
    after(() => announceDecision(getDb(), requestId));
    refresh();
    const notes = [
      outcome.followedReissue
        ? `the key was reissued, so its successor ${outcome.display} got Pro`
        : `${outcome.display} is now Pro`,
      outcome.alreadyPro ? 'it was already Pro' : '',
      outcome.disabled ? 'it is disabled; it keeps Pro if re-enabled' : '',
    ].filter(Boolean);
    return { message: `Approved: ${notes.join('; ')}.` };
  },
);

export const declineAction = portalAction(
  decision('the request was not declined'),
  async ({ requestId, note }, { viewer }) => {
    await declineUpgrade(getDb(), viewer, requestId, note);
    after(() => announceDecision(getDb(), requestId));
    refresh();
    return {
      message: 'Declined; the developer sees your note on their Upgrade page (and in the messaging app, if bound).',
    };
  },
);
