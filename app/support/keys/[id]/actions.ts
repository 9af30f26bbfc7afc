'use server';
/** Staff actions on one key. Thin: portalAction gives the staff viewer and the actor (with IP); the service decides. */
import { refresh } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { staffChangeSettings, staffDisableKey, staffEnableKey, staffReissueKey } from '@/lib/portal/support.ts';

/** A staff action on one key; `notDone` is what did not happen when the session had ended. */
const onKey = <S extends z.ZodRawShape>(
  fields: S,
  notDone: string | ((input: z.output<z.ZodObject<S>>) => string),
) => ({
  input: z.object({ keyId: trimmedText, ...fields }),
  access: 'staff' as const,
  notDone,
});

/**
 * Disable (turn=off) or re-enable (turn=on). One action for both, because the page swaps one dialog for
 * the other in place and a form keeps the action it was first given.
 */
export const switchKeyAction = portalAction(
  onKey({ turn: trimmedText, reason: trimmedText, leaked: trimmedText }, ({ turn }) =>
    turn === 'on' ? 'the key was not re-enabled' : 'the key was not disabled',
  ),
  async ({ keyId, turn, reason, leaked }, { viewer, actor }) => {
    if (turn === 'off') {
      const stopped = await staffDisableKey(getDb(), viewer, keyId, reason, actor, leaked === 'yes');
      refresh();
      return {
        message: `Key ${leaked === 'yes' ? 'disabled as leaked' : 'disabled'}. Calls with it now get 401${stopped.endedGrace ? ', and so do calls with the previous secret it replaced' : ''}.`,
      };
    }
    if (turn === 'on') {
      await staffEnableKey(getDb(), viewer, keyId, reason, actor);
      refresh();
      return { message: 'Key re-enabled. It works again from the next call.' };
    }
    throw new PortalInputError('Choose whether to disable or re-enable the key.');
  },
);

export type ReissueResult = { id: string; display: string; secret: string; oldWorksUntil: string | null };

/** No refresh here: the page would drop the dialog that shows the new secret; closing it navigates on. */
export const reissueKeyAction = portalAction(
  onKey({ grace: trimmedText }, 'the key was not reissued'),
  ({ keyId, grace }, { viewer, actor }): Promise<ReissueResult> =>
    staffReissueKey(getDb(), viewer, keyId, actor, grace),
);

const SETTING_LABELS: Record<string, string> = {
  tierId: 'tier',
  dailyQuota: 'daily quota',
  ratePerSecond: 'per-second limit',
  expiresAt: 'expiry',
};

export const changeSettingsAction = portalAction(
  onKey(
    {
      tierId: trimmedText,
      dailyQuota: trimmedText,
      ratePerSecond: trimmedText,
      expiresOn: trimmedText,
      reason: trimmedText,
    },
    'the settings were not saved',
  ),
  async ({ keyId, ...settings }, { viewer, actor }) => {
    const { changed } = await staffChangeSettings(getDb(), viewer, keyId, settings, actor);
    refresh();
    return {
      message: changed.length
        ? `Saved: ${changed.map((c) => SETTING_LABELS[c] ?? c).join(', ')}. /mcp applies it from the next call.`
        : 'Nothing changed: the key already has these settings.',
    };
  },
);
