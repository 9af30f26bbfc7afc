'use client';
/** Today's calls per tool as stacked horizontal bars (tool names are long, so they sit on the vertical axis). */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ToolUsage } from '@/lib/usage/queries.ts';
import { OUTCOME_COLORS } from './chart-colors.ts';

export function ToolUsageChart({ today }: { today: ToolUsage[] }) {
  const height = 90 + today.length * 44;
  return (
    <div
      className="chart"
      style={{ height }}
      role="img"
      aria-label="Bar chart of today's calls per tool: successes, failures and rate-limited calls (the table above has the numbers)"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={today} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} />
          <YAxis type="category" dataKey="tool" width={170} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend itemSorter={null} />
          <Bar
            dataKey="successes"
            name="Successes"
            stackId="calls"
            fill={OUTCOME_COLORS.successes}
            isAnimationActive={false}
          />
          <Bar
            dataKey="failures"
            name="Failures"
            stackId="calls"
            fill={OUTCOME_COLORS.failures}
            isAnimationActive={false}
          />
          <Bar
            dataKey="rateLimited"
            name="Rate-limited"
            stackId="calls"
            fill={OUTCOME_COLORS.rateLimited}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
