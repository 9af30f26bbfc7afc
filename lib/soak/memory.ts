/** The server's resident set, read from /proc every few seconds while the soak runs. */
import { readFileSync } from 'node:fs';
import type { RssSample } from './verdict.ts';

/** VmRSS (current resident set) of a process in MB, or null when /proc does not have it. */
export function rssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** Samples every `intervalMs` from now (t = 0) until stopped. */
export function sampleRss(pid: number, intervalMs: number): { samples: RssSample[]; stop: () => void } {
  const started = performance.now();
  const samples: RssSample[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (mb !== null) samples.push({ atMs: Math.round(performance.now() - started), rssMb: mb });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { samples, stop: () => clearInterval(timer) };
}
