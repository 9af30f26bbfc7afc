/** Today's calls per tool with a totals row; failures and successes both count against the quota, rate-limited calls do not. */
import type { ToolUsage } from '@/lib/usage/queries.ts';
import { CallCountsTable } from './CallCountsTable.tsx';

export function ToolUsageTable({ today }: { today: ToolUsage[] }) {
  const total = { label: 'All tools', successes: 0, failures: 0, rateLimited: 0 };
  for (const t of today) {
    total.successes += t.successes;
    total.failures += t.failures;
    total.rateLimited += t.rateLimited;
  }
  return (
    <CallCountsTable
      caption="Today's calls by tool"
      rowHeading="Tool"
      rows={today.map((t) => ({ ...t, key: t.tool, label: <code>{t.tool}</code> }))}
      total={today.length > 1 ? total : undefined}
    />
  );
}
