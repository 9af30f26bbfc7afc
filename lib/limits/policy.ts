/**
 * Tier policy: the defaults every key of a tier gets unless the key overrides them. The spec fixes the
 * free tier (1 request/s, 1000 calls/day) and Pro's daily quota (100,000); Pro's per-second rate is
 * ours to choose: 25/s by default (PRO_RATE_PER_SECOND), enough for an agent fanning out parallel tool
 * calls while one runaway client cannot take a large share of an instance. These values seed the Tier
 * table; after that the table is the truth, and staff change a tier there.
 */
import { config } from '../config.ts';

interface TierPolicy {
  id: 'free' | 'pro';
  name: string;
  dailyQuota: number;
  ratePerSecond: number;
  description: string;
}

export function tierPolicies(): TierPolicy[] {
  return [
    {
      id: 'free',
      name: 'Free',
      dailyQuota: 1000,
      ratePerSecond: 1,
      description: 'For trying the tools: 1 call per second, 1,000 calls per day.',
    },
    {
      id: 'pro',
      name: 'Pro',
      dailyQuota: 100_000,
      ratePerSecond: config().proRatePerSecond,
      description: 'For production agents: 100,000 calls per day and a higher per-second rate.',
    },
  ];
}

/** Where a rate-limited caller learns what Pro gives and how to ask for it (the 429 body). */
export function upgradeGuidance(baseUrl: string) {
  const pro = tierPolicies().find((t) => t.id === 'pro')!;
  return {
    tier: 'pro',
    daily_quota: pro.dailyQuota,
    requests_per_second: pro.ratePerSecond,
    how: 'Request Pro in the portal (Keys → your key → Upgrade to Pro) or ask customer service.',
    url: `${baseUrl}/upgrade`,
  };
}
