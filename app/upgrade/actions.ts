'use server';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { requestUpgrade } from '@/lib/portal/upgrades.ts';

export const requestUpgradeAction = portalAction(
  {
    input: z.object({
      keyId: trimmedText,
      useCase: trimmedText,
      expectedDailyCalls: trimmedText,
      contact: trimmedText,
    }),
    access: 'signed-in',
    notDone: 'the request was not sent',
  },
  async ({ keyId, useCase, expectedDailyCalls, contact }, { viewer }) => {
    if (!/^\d+$/.test(expectedDailyCalls))
      throw new PortalInputError(
        'Expected calls per day must be a whole number of at least 1, like 20000.',
        'expectedDailyCalls',
      );
    await requestUpgrade(getDb(), viewer, { keyId, useCase, expectedDailyCalls: Number(expectedDailyCalls), contact });
    // The form may disappear once every key has a pending request, so the page itself confirms (?sent=1).
    redirect('/upgrade?sent=1');
  },
);
