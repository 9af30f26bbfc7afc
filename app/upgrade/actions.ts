'use server';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client.ts';
import { field, runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { requestUpgrade } from '@/lib/portal/upgrades.ts';
import { requireViewer } from '@/lib/portal/viewer.ts';

export async function requestUpgradeAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireViewer('/upgrade');
  const state = await runAction(async () => {
    const expected = field(form, 'expectedDailyCalls');
    if (!/^\d+$/.test(expected)) throw new PortalInputError('Expected calls per day must be a whole number of at least 1, like 20000.');
    await requestUpgrade(getDb(), viewer, {
      keyId: field(form, 'keyId'),
      useCase: field(form, 'useCase'),
      expectedDailyCalls: Number(expected),
      contact: field(form, 'contact'),
    });
    return {};
  });
  // The form may disappear once every key has a pending request, so the page itself confirms (?sent=1).
  if (state?.ok) redirect('/upgrade?sent=1');
  return state;
}
