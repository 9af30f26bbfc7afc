'use client';
/**
 * KeyUsagePanels that keep themselves current: every 5 s the panels fetch `endpoint` (a JSON KeyReport)
 * while the tab is visible, and once at once when it becomes visible again. The endpoint does the
 * access check (the developer's own-key route, or the support console's staff route), so this
 * component serves both.
 *
 * Polling a JSON route rather than calling router.refresh(): a refresh re-renders the whole page on the
 * server (layout, key facts, action forms) every 5 s for the sake of the numbers, while the route sends
 * just the report; and the support console can point the same component at its own staff-checked route.
 */
import { useEffect, useRef, useState } from 'react';
import { formatUtcTime } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';
import { KeyUsagePanels } from './KeyUsagePanels.tsx';
import { RefusedCalls } from './RefusedCalls.tsx';

const REFRESH_INTERVAL_MS = 5_000;

type FetchProblem = { kind: 'retrying'; message: string } | { kind: 'stopped'; message: string };

export function LiveKeyUsage({
  initial,
  endpoint,
  callLogCsv,
}: {
  initial: KeyReport;
  endpoint: string;
  callLogCsv: string;
}) {
  const [report, setReport] = useState(initial);
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);
  const [problem, setProblem] = useState<FetchProblem | null>(null);
  const [paused, setPaused] = useState(false);
  const stopped = useRef(false);

  // A server re-render (after rename, disable, …) brings a fresher report than the last poll.
  useEffect(() => {
    setReport(initial);
    setUpdatedAt(new Date().toISOString());
  }, [initial]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | undefined;
    stopped.current = false;

    async function poll() {
      timer = undefined;
      if (document.hidden || stopped.current || inFlight) return;
      inFlight = new AbortController();
      try {
        const response = await fetch(endpoint, {
          cache: 'no-store',
          headers: { accept: 'application/json' },
          signal: inFlight.signal,
        });
        if (response.status === 404 || response.status === 401) {
          stopped.current = true;
          setProblem({
            kind: 'stopped',
            message:
              'Stopped refreshing: this key is no longer available to you (were you signed out?). Reload the page.',
          });
          return;
        }
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        setReport((await response.json()) as KeyReport);
        setUpdatedAt(new Date().toISOString());
        setProblem(null);
      } catch (error) {
        if ((error as Error).name === 'AbortError') return;
        setProblem({
          kind: 'retrying',
          message: `Could not refresh (${(error as Error).message}); trying again in ${REFRESH_INTERVAL_MS / 1000} s.`,
        });
      } finally {
        inFlight = undefined;
      }
      schedule();
    }

    function schedule() {
      if (!stopped.current && !document.hidden && timer === undefined) timer = setTimeout(poll, REFRESH_INTERVAL_MS);
    }

    function onVisibility() {
      setPaused(document.hidden);
      if (document.hidden) {
        clearTimeout(timer);
        timer = undefined;
      } else if (timer === undefined && !inFlight) {
        void poll();
      }
    }

    setPaused(document.hidden);
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      clearTimeout(timer);
      inFlight?.abort();
    };
  }, [endpoint]);

  return (
    <>
      <p className="live-status muted">
        <span>{updatedAt ? `Updated ${formatUtcTime(updatedAt)}` : 'Loading…'}</span>
        <span>
          {paused ? 'Refreshing paused while this tab is hidden.' : `Refreshes every ${REFRESH_INTERVAL_MS / 1000} s.`}
        </span>
      </p>
      {problem && (
        <p className={`alert${problem.kind === 'stopped' ? ' error' : ''}`} role="status">
          {problem.message}
        </p>
      )}
      <RefusedCalls report={report} />
      <KeyUsagePanels report={report} callLogCsv={callLogCsv} />
    </>
  );
}
