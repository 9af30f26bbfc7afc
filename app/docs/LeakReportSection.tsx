/** How anyone reports ChemFlow keys found in public places (POST /api/keys/report-leak). */
import { config } from '@/lib/config.ts';
import { bodyCapFor, sizeText } from '@/lib/http/body-caps.ts';
import { LEAK_REPORT_PATH } from '@/lib/http/cross-site.ts';
import { formatCount } from '@/lib/portal/format.ts';
import { LEAK_REPORT_ACCEPTED_MESSAGE, MAX_REPORTED_SECRETS, MAX_SOURCE_CHARS } from '@/lib/portal/leak-report.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { leakReportCurl } from './snippets.ts';

export function LeakReportSection({ origin }: { origin: string }) {
  const perMinute = config().leakReportsPerMinute;
  return (
    <>
      <p>
        Found a ChemFlow key (<code>cf_</code> followed by 38 letters and digits) in a public repository, a paste or a
        log? Send it here. No account is needed. Every key in the report stops working at once, and its owner sees why
        in the audit trail. If it is your own key, you can also disable or reissue it on your keys page.
      </p>
      <CodeBlock caption="curl: report a leaked key" code={leakReportCurl(origin)} />
      <ul>
        <li>
          Body: <code>{'{"secrets": ["cf_…", …], "source": "…"}'}</code>, with up to {formatCount(MAX_REPORTED_SECRETS)}{' '}
          secrets and an optional <code>source</code> of at most {MAX_SOURCE_CHARS} characters saying where they were
          found. GitHub secret scanning&apos;s format,{' '}
          <code>{'[{"token": "cf_…", "type": "…", "url": "…", "source": "…"}, …]'}</code>, is accepted too.
        </li>
        <li>
          The answer is always <code>202</code> with{' '}
          <code>{JSON.stringify({ received: 1, message: LEAK_REPORT_ACCEPTED_MESSAGE })}</code>, whether or not the
          secrets were keys: the endpoint does not tell which secrets exist. Strings that are not well-formed keys are
          ignored.
        </li>
        <li>
          Limits: {sizeText(bodyCapFor(LEAK_REPORT_PATH).bytes)} per report (<code>413</code>),{' '}
          <code>Content-Type: application/json</code> (<code>415</code>), and {perMinute} reports per minute from one
          address (<code>429</code> with <code>Retry-After</code>). A malformed body gets <code>400</code> with a
          message saying what to send; other methods get <code>405</code>.
        </li>
      </ul>
    </>
  );
}
