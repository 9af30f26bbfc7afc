/**
 * PLACEHOLDER, replaced at merge by the real usage panels (charts, refresh) built in another branch.
 * Same path and props, so the support console's key page works in both.
 */
import type { KeyReport } from '@/lib/keys/report.ts';

export function KeyUsagePanels({ report }: { report: KeyReport }) {
  return (
    <section aria-label="Usage">
      <h2>Today by tool</h2>
      {report.today.length ? (
        <div className="table-wrap">
          <table>
            <thead><tr><th>Tool</th><th className="num">Successes</th><th className="num">Failures</th><th className="num">Rate-limited</th></tr></thead>
            <tbody>
              {report.today.map((t) => (
                <tr key={t.tool}><td>{t.tool}</td><td className="num">{t.successes}</td><td className="num">{t.failures}</td><td className="num">{t.rateLimited}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p className="empty">No calls today.</p>}
      <h2>Last calls</h2>
      {report.lastCalls.length ? (
        <div className="table-wrap">
          <table>
            <thead><tr><th>Time (UTC)</th><th>Tool</th><th>Outcome</th><th className="num">Latency</th></tr></thead>
            <tbody>
              {report.lastCalls.map((c) => (
                <tr key={c.requestId}><td>{c.createdAt.replace('T', ' ').slice(0, 19)}</td><td>{c.tool}</td><td><span className={`badge ${c.outcome}`}>{c.outcome}</span></td><td className="num">{c.latencyMs.toFixed(1)} ms</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p className="empty">No calls yet.</p>}
    </section>
  );
}
