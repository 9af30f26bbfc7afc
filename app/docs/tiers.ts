/**
 * The tiers as they apply now, for the public pages: the Tier table is the truth once seeded (staff
 * change it there); the tier policy defaults stand in when the database cannot be read, so the docs
 * and the landing page never fail to render.
 */
import { getDb } from '@/lib/db/client.ts';
import { tierPolicies } from '@/lib/limits/policy.ts';
import { log } from '@/lib/ops/log.ts';
import { formatCount, formatRate } from '@/lib/portal/format.ts';

export interface TierLimits {
  id: string;
  name: string;
  dailyQuota: number;
  ratePerSecond: number;
  description: string;
}

export async function currentTiers(): Promise<TierLimits[]> {
  try {
    const tiers = await getDb().tier.findMany({ orderBy: { dailyQuota: 'asc' } });
    if (tiers.length) return tiers;
  } catch (error) {
    log('error', 'tier table unreadable, showing the default tiers', { error: String(error) });
  }
  return tierPolicies();
}

export const perSecond = (tier: TierLimits) => formatRate(tier.ratePerSecond);
export const perDay = (tier: TierLimits) => `${formatCount(tier.dailyQuota)} calls/day`;

/** "Free: 1 call/s and 1,000 calls/day. Pro: 25 calls/s and 100,000 calls/day." */
export function tiersInBrief(tiers: TierLimits[]): string {
  return tiers.map((tier) => `${tier.name}: ${perSecond(tier)} and ${perDay(tier)}.`).join(' ');
}
