/** The server's resident set, read from /proc every few seconds while the soak runs. */
import { residentSetMb } from '../bench/processes.ts';
import type { RssSample } from './verdict.ts';

/** Samples every `intervalMs` from now (t = 0) until stopped. */
export function sampleRss(pid: number, intervalMs: number): { samples: RssSample[]; stop: () => void } {
  const started = performance.now();
  const samples: RssSample[] = [];
  const take = () => {
    const mb = residentSetMb(pid, 'VmRSS');
    if (mb !== null) samples.push({ atMs: Math.round(performance.now() - started), rssMb: mb });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { samples, stop: () => clearInterval(timer) };
}
