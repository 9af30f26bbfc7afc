/**
 * What the soak's load generators saw: every request counted by kind and answer, and the unexpected
 * ones kept (all of them counted; the first few of each kind kept whole as examples).
 */
import type { UnexpectedError } from './verdict.ts';

const EXAMPLES_PER_KIND = 5;

export class Observations {
  /** "kind|answer" → count, e.g. "tools/call|429 rate_per_second". */
  readonly counts = new Map<string, number>();
  readonly unexpected: UnexpectedError[] = [];

  count(kind: string, answer: string): void {
    const key = `${kind}|${answer}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Counts the request and records why it was not what the soak expected. */
  fail(kind: string, answer: string, what: string, problem: string): void {
    this.count(kind, answer);
    this.unexpected.push({ what, problem });
  }

  /** The unexpected errors grouped by what failed: counts and a few examples. */
  unexpectedSummary(): { what: string; count: number; examples: string[] }[] {
    const groups = new Map<string, string[]>();
    for (const { what, problem } of this.unexpected) groups.set(what, [...(groups.get(what) ?? []), problem]);
    return [...groups].map(([what, problems]) => ({
      what,
      count: problems.length,
      examples: problems.slice(0, EXAMPLES_PER_KIND),
    }));
  }

  /** The counts as rows sorted by kind and answer. */
  table(): { kind: string; answer: string; count: number }[] {
    return [...this.counts]
      .map(([key, count]) => {
        const [kind, answer] = key.split('|');
        return { kind, answer, count };
      })
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.answer.localeCompare(b.answer));
  }
}

/** An error's short text for an example (no stack: the examples go into docs/performance.md). */
export function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return `${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? error}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
}
