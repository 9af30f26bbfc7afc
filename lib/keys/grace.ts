/**
 * How long the old secret of a reissued key keeps working, so a deployed client can be switched over
 * (as Stripe's "roll key"): `none` stops it at once. The old key's `disabledAt` is set to the moment it
 * stops; a key is disabled only once that moment has passed (store.ts `isDisabledAt`). No imports: the
 * portal's reissue dialogs (client components) read the choices from here.
 */
export const REISSUE_GRACE_PERIODS = { none: 0, '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const;
export type ReissueGrace = keyof typeof REISSUE_GRACE_PERIODS;
export const REISSUE_GRACE_CHOICES = Object.keys(REISSUE_GRACE_PERIODS) as ReissueGrace[];

/** How the portal's "Old secret stops" choice reads each period. */
export const REISSUE_GRACE_LABELS: Record<ReissueGrace, string> = {
  none: 'now (default)',
  '1h': 'in 1 hour',
  '24h': 'in 24 hours',
  '7d': 'in 7 days',
};

class InvalidGraceError extends Error {}

/** A grace choice as typed (CLI flag, form field; missing means none); anything else is refused with the list. */
export function parseReissueGrace(raw: unknown): ReissueGrace {
  const choice = raw === undefined || raw === null ? 'none' : typeof raw === 'string' ? raw.trim() : '';
  if (Object.hasOwn(REISSUE_GRACE_PERIODS, choice)) return choice as ReissueGrace;
  throw new InvalidGraceError(
    `Choose when the old secret stops: ${REISSUE_GRACE_CHOICES.join(', ')} (none stops it at once).`,
  );
}
