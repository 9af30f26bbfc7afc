/**
 * The benchmark's verdict, kept apart from the measuring so it can be tested: the rows as measured, the
 * ratios its targets are set on (4/2, 4/1, 6/2), and each target marked met or missed. A row with non-2xx
 * answers or errors measured refusals rather than work, so its targets count as missed.
 */
import type { AnswerSize, ToolSize } from './answer.ts';
import type { LoadMeasurement } from './load.ts';

export type RowId =
  | 'next_ping'
  | 'bare_sdk_tools_list'
  | 'mcp_tools_list'
  | 'mcp_tools_call'
  | 'mcp_tools_call_shared'
  | 'mcp_tools_call_reference_eos'
  | 'mcp_tools_call_during_exports';

/** One row of the table: what it measured (the load run's numbers, less the status breakdown) and its place. */
export interface RowResult extends Omit<LoadMeasurement, 'statusCodes'> {
  id: RowId;
  /** 1–4 and 6 the hot path's rows (5, /mcp through a Next route, is gone with that route); 7 the reference-EOS call; 8 /mcp while four call-log exports run (export-load.ts). */
  number: number;
  label: string;
  note?: string;
  /** The size of the row's answer, from one request before the load (answer.ts); null when it failed. */
  answer?: AnswerSize | null;
}

/**
 * Row 3's answer, the catalogue every agent loads on connecting, next to its rate. The token figure is
 * an estimate (result bytes / 4), not a tokenizer's count.
 */
export interface ToolsListSize {
  /** The SSE body as sent. */
  bytes: number;
  /** The JSON-RPC result (`{"tools":[…]}`) as JSON. */
  resultBytes: number;
  tools: number;
  /** resultBytes / tools, rounded. */
  bytesPerTool: number;
  /** resultBytes / 4, rounded: roughly the tokens an agent's context holds for the listing. */
  estimatedTokens: number;
  /** The three largest tools. */
  largest: ToolSize[];
  requestsPerSecond: number;
  cpuPerRequestUs: number | null;
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
  /** Row 3's answer size and rate; null when row 3 or its answer is missing. */
  toolsList: ToolsListSize | null;
  /** True when every row answered only 2xx without errors, and its sampled answer was not an error. */
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
  // A tool error answers 200, so its row's rate would measure a refusal: an answer marked as an error is not clean.
  const clean = (r: RowResult | undefined) =>
    r !== undefined && r.non2xx === 0 && r.errors === 0 && r.requestsPerSecond > 0 && r.answer?.error === undefined;
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
    check('8: /mcp p99 during four exports (ms)', row(8)?.p99Ms ?? null, '≤ 50 ms', (v) => v <= 50, clean(row(8))),
    check('peak RSS of the server (MB)', peakRss, '≤ 400 MB', (v) => v <= 400, true),
    check(
      '6/2 (shared-mode tools/call vs bare SDK)',
      ratios['6/2'],
      '≥ 0.5',
      (v) => v >= 0.5,
      clean(row(6)) && clean(row(2)),
    ),
  ];
  return { rows, ratios, targets, toolsList: toolsListSize(rows), clean: rows.every(clean) };
}

function toolsListSize(rows: RowResult[]): ToolsListSize | null {
  const list = rows.find((r) => r.id === 'mcp_tools_list');
  const answer = list?.answer;
  if (!list || !answer || answer.resultBytes === null || !answer.tools) return null;
  return {
    bytes: answer.bytes,
    resultBytes: answer.resultBytes,
    tools: answer.tools,
    bytesPerTool: Math.round(answer.resultBytes / answer.tools),
    estimatedTokens: Math.round(answer.resultBytes / 4),
    largest: (answer.toolSizes ?? []).slice(0, 3),
    requestsPerSecond: list.requestsPerSecond,
    cpuPerRequestUs: list.cpuPerRequestUs,
  };
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const bytes = (value: number) => `${count(value)} B`;

/** The answer column: the body's bytes, marked when the one request got an error rather than the planned answer. */
function answerCell(answer: AnswerSize | null | undefined): string {
  if (!answer) return '–';
  if (answer.status < 200 || answer.status > 299) return `${bytes(answer.bytes)} (status ${answer.status})`;
  return answer.error === undefined ? bytes(answer.bytes) : `${bytes(answer.bytes)} (error)`;
}

/** The table the benchmark prints (markdown, so it pastes into docs/performance.md as is). */
export function formatSummary(summary: BenchSummary): string {
  const lines = [
    '| # | measures | requests/s | p50 | p99 | peak RSS | server CPU / request | non-2xx | answer |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.rows.map(
      (r) =>
        `| ${r.number} | ${r.label}${r.note ? ` (${r.note})` : ''} | ${count(r.requestsPerSecond)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.peakRssMb === null ? '–' : `${r.peakRssMb} MB`} | ${r.cpuPerRequestUs === null ? '–' : `${count(r.cpuPerRequestUs)} µs`} | ${r.non2xx + r.errors} | ${answerCell(r.answer)} |`,
    ),
    '',
    ...formatToolsList(summary.toolsList),
    '| target | measured | goal | |',
    '|---|---:|---:|---|',
    ...summary.targets.map((t) => `| ${t.name} | ${t.value ?? '–'} | ${t.target} | ${t.status} |`),
  ];
  return lines.join('\n');
}

/** Row 3's answer as a small table of its own, followed by a blank line; nothing when it was not measured. */
function formatToolsList(list: ToolsListSize | null): string[] {
  if (!list) return [];
  return [
    '| tools/list (row 3) | measured |',
    '|---|---:|',
    `| answer (SSE body) | ${bytes(list.bytes)} |`,
    `| JSON-RPC result | ${bytes(list.resultBytes)} |`,
    `| tools | ${list.tools} |`,
    `| result per tool | ≈ ${bytes(list.bytesPerTool)} |`,
    `| largest tools | ${list.largest.map((t) => `${t.name} ${bytes(t.bytes)}`).join(', ')} |`,
    `| ≈ tokens (result bytes / 4, an estimate) | ≈ ${count(list.estimatedTokens)} |`,
    `| requests/s | ${count(list.requestsPerSecond)} |`,
    `| server CPU / request | ${list.cpuPerRequestUs === null ? '–' : `${count(list.cpuPerRequestUs)} µs`} |`,
    '',
  ];
}
