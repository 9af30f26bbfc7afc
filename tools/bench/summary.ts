/**
 * The benchmark's verdict, kept apart from the measuring so it can be tested: the rows as measured, the
 * ratios the issue names (4/2, 4/1, 6/2), and each target marked met or missed. A row with non-2xx
 * answers or errors measured refusals rather than work, so its targets count as missed.
 */
import type { LoadMeasurement } from './load.ts';

export type RowId =
  | 'next_ping'
  | 'bare_sdk_tools_list'
  | 'mcp_tools_list'
  | 'mcp_tools_call'
  | 'mcp_tools_call_next_mount'
  | 'mcp_tools_call_shared'
  | 'mcp_tools_call_reference_eos';

/** One row of the table: what it measured (the load run's numbers, less the status breakdown) and its place. */
export interface RowResult extends Omit<LoadMeasurement, 'statusCodes'> {
  id: RowId;
  /** 1–6 as the performance issue numbers them; 7 the reference-EOS call. */
  number: number;
  label: string;
  note?: string;
}

export interface TargetCheck {
  name: string;
  /** Measured value, or null when the rows it needs were not run. */
  value: number | null;
  target: string;
  status: 'met' | 'missed' | 'not run';
}

export interface BenchSummary {
  rows: RowResult[];
  ratios: { '4/2': number | null; '4/1': number | null; '6/2': number | null };
  targets: TargetCheck[];
  /** True when every row answered only 2xx without errors. */
  clean: boolean;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function check(
  name: string,
  value: number | null,
  target: string,
  ok: (v: number) => boolean,
  valid: boolean,
): TargetCheck {
  if (value === null) return { name, value, target, status: 'not run' };
  return { name, value, target, status: valid && ok(value) ? 'met' : 'missed' };
}

export function summarise(rows: RowResult[]): BenchSummary {
  const row = (n: number) => rows.find((r) => r.number === n);
  const clean = (r: RowResult | undefined) =>
    r !== undefined && r.non2xx === 0 && r.errors === 0 && r.requestsPerSecond > 0;
  const ratio = (a: number, b: number) => {
    const top = row(a);
    const bottom = row(b);
    return top && bottom && bottom.requestsPerSecond > 0
      ? round(top.requestsPerSecond / bottom.requestsPerSecond)
      : null;
  };
  const ratios = { '4/2': ratio(4, 2), '4/1': ratio(4, 1), '6/2': ratio(6, 2) };
  const call = row(4);
  // Our server's peak (row 2 is the bare SDK process, not ours).
  const ours = rows.filter((r) => r.number !== 2 && r.peakRssMb !== null).map((r) => r.peakRssMb!);
  const peakRss = ours.length ? Math.max(...ours) : null;
  const targets = [
    check(
      '4/2 (our tools/call vs bare SDK tools/list)',
      ratios['4/2'],
      '≥ 0.75',
      (v) => v >= 0.75,
      clean(row(4)) && clean(row(2)),
    ),
    check(
      '4/1 (our tools/call vs trivial Next route)',
      ratios['4/1'],
      '≥ 2',
      (v) => v >= 2,
      clean(row(4)) && clean(row(1)),
    ),
    check('p99 of 4 (ms)', call ? call.p99Ms : null, '≤ 30 ms', (v) => v <= 30, clean(call)),
    check('peak RSS of the server (MB)', peakRss, '≤ 400 MB', (v) => v <= 400, true),
    check(
      '6/2 (shared-mode tools/call vs bare SDK)',
      ratios['6/2'],
      '≥ 0.5',
      (v) => v >= 0.5,
      clean(row(6)) && clean(row(2)),
    ),
  ];
  return { rows, ratios, targets, clean: rows.every(clean) };
}

/** The table the benchmark prints (markdown, so it pastes into docs/performance.md as is). */
export function formatSummary(summary: BenchSummary): string {
  const lines = [
    '| # | measures | requests/s | p50 | p99 | peak RSS | server CPU / request | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...summary.rows.map(
      (r) =>
        `| ${r.number} | ${r.label}${r.note ? ` (${r.note})` : ''} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.peakRssMb === null ? '–' : `${r.peakRssMb} MB`} | ${r.cpuPerRequestUs === null ? '–' : `${r.cpuPerRequestUs} µs`} | ${r.non2xx + r.errors} |`,
    ),
    '',
    '| target | measured | goal | |',
    '|---|---:|---:|---|',
    ...summary.targets.map((t) => `| ${t.name} | ${t.value ?? '–'} | ${t.target} | ${t.status} |`),
  ];
  return lines.join('\n');
}
