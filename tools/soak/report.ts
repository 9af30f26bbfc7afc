/** The soak's printed summary (markdown, so it pastes into docs/performance.md as is). */
import type { Verdict } from './verdict.ts';

export interface SoakReport {
  requests: { kind: string; answer: string; count: number }[];
  unexpected: { what: string; count: number; examples: string[] }[];
  verdict: Verdict;
  supportChanges: Record<string, number>;
}

export function formatReport(report: SoakReport): string {
  const lines = [
    '| requests | answer | count |',
    '|---|---|---:|',
    ...report.requests.map((r) => `| ${r.kind} | ${r.answer} | ${r.count.toLocaleString('en-US')} |`),
    '',
    `Support changes made: ${Object.entries(report.supportChanges)
      .map(([op, n]) => `${op} ${n}`)
      .join(', ')}.`,
  ];
  if (report.unexpected.length) {
    lines.push('', 'Unexpected errors:');
    for (const u of report.unexpected) lines.push(`- ${u.what}: ${u.count}`, ...u.examples.map((e) => `  - ${e}`));
  }
  if (report.verdict.quotaMismatches.length) {
    lines.push(
      '',
      'Quota mismatches:',
      ...report.verdict.quotaMismatches.map((m) => `- ${m.label} (${m.keyIds.join(' → ')}): ${m.problem}`),
    );
  }
  lines.push(
    '',
    '| criterion | measured | |',
    '|---|---|---|',
    ...report.verdict.criteria.map((c) => `| ${c.name} | ${c.detail} | ${c.pass ? 'pass' : 'FAIL'} |`),
  );
  return lines.join('\n');
}
