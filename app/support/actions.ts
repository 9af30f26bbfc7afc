'use server';
/**
 * The support search. A pasted secret is searched here, in the POST, and never travels further: the
 * browser is sent to the matching key's id (no secret in any URL, page or log). Anything else becomes
 * /support?q=…, a URL staff can share.
 */
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { looksLikeSecret, searchKeys, searchQueryProblem } from '@/lib/portal/support.ts';
import { requireStaffViewer } from '@/lib/portal/viewer.ts';

export async function searchAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireStaffViewer('/support');
  const query = field(form, 'q');
  if (!looksLikeSecret(query)) {
    const problem = searchQueryProblem(query);
    if (problem) return { ok: false, error: problem };
    redirect(`/support?q=${encodeURIComponent(query)}`);
  }
  let matchId: string | undefined;
  const state = await runAction(async () => {
    const { results } = await searchKeys(getDb(), viewer, query);
    matchId = results[0]?.id;
    return {};
  });
  if (state && !state.ok) return state;
  if (!matchId) return { ok: false, error: 'No key matches that secret. It may have been mistyped, or never issued here.' };
  redirect(`/support?match=${encodeURIComponent(matchId)}`);
}
