'use server';
/**
 * The support search. A pasted secret is searched here, in the POST, and never travels further: the
 * browser is sent to the matching key's id (no secret in any URL, page or log). Anything else becomes
 * /support?q=…, a URL staff can share.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { looksLikeSecret, searchKeys, searchQueryProblem } from '@/lib/portal/support.ts';

export const searchAction = portalAction(
  { input: z.object({ q: trimmedText }), access: 'staff', notDone: 'the search did not run' },
  async ({ q }, { viewer }) => {
    if (!looksLikeSecret(q)) {
      const problem = searchQueryProblem(q);
      if (problem) throw new PortalInputError(problem);
      redirect(`/support?q=${encodeURIComponent(q)}`);
    }
    const { results } = await searchKeys(getDb(), viewer, q);
    const matchId = results[0]?.id;
    if (!matchId)
      throw new PortalInputError('No key matches that secret. It may have been mistyped, or never issued here.');
    redirect(`/support?match=${encodeURIComponent(matchId)}`);
  },
);
