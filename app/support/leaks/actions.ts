'use server';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText, verbatimText } from '@/lib/portal/form-input.ts';
import { bulkDisableLeaked, type LeakBulkOutcome } from '@/lib/portal/support.ts';

export type LeakResult = { outcome: LeakBulkOutcome };

export const bulkDisableAction = portalAction(
  // The pasted text is used as is (not trimmed per line): secrets are found anywhere in it.
  {
    input: z.object({ text: verbatimText, source: trimmedText, confirm: verbatimText }),
    access: 'staff',
    notDone: 'no key was disabled',
  },
  async ({ text, source, confirm }, { viewer, actor }): Promise<LeakResult> => {
    if (confirm !== 'yes')
      throw new PortalInputError('Tick the confirmation box: every matching key will stop working at once.', 'confirm');
    return { outcome: await bulkDisableLeaked(getDb(), viewer, text, source, actor) };
  },
);
