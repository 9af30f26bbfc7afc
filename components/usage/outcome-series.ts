/**
 * The outcome series every usage chart stacks, in legend order, and the tooltip settings that keep to
 * that order and write counts as the tables do ("1,234"); recharts' default tooltip sorts by name.
 */
import { formatCount } from '@/lib/portal/format.ts';
import { OUTCOME_COLORS } from './chart-colors.ts';

export const OUTCOME_SERIES = [
  { dataKey: 'successes', name: 'Successes', fill: OUTCOME_COLORS.successes },
  { dataKey: 'failures', name: 'Failures', fill: OUTCOME_COLORS.failures },
  { dataKey: 'rateLimited', name: 'Rate-limited', fill: OUTCOME_COLORS.rateLimited },
] as const;

const ORDER: readonly string[] = OUTCOME_SERIES.map((s) => s.dataKey);

/**
 * The tooltip's text is in the page's colours: recharts colours each item with its series' fill, which
 * is too pale to read as text (axe color-contrast); the order and the names say which series it is.
 */
export const OUTCOME_TOOLTIP = {
  contentStyle: { background: 'var(--bg)', color: 'var(--fg)', borderColor: 'var(--line)' },
  itemStyle: { color: 'var(--fg)' },
  formatter: (value: unknown) => formatCount(Number(value)),
  itemSorter: (item: { dataKey?: unknown }) => ORDER.indexOf(String(item.dataKey)),
};
