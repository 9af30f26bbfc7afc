import type { Metadata } from 'next';
import Link from 'next/link';
import { AuditTable } from '@/components/support/AuditTable.tsx';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { type AuditFilters, type AuditPage, auditTrail } from '@/lib/portal/audit-trail.ts';
import { orNotFound, requireStaffViewer } from '@/lib/portal/viewer.ts';

export const metadata: Metadata = { title: 'Audit trail' };

type Params = { key?: string; actor?: string; from?: string; to?: string; page?: string };
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

type FilterError = { message: string; field?: string };
const FILTER_ERROR_ID = 'audit-filter-error';

/**
 * A day filter as text, not a date picker: a browser's date input shows and types days in its locale's
 * order (mm/dd/yyyy here, dd/mm/yyyy there), where every date of the portal is ISO UTC. The server
 * checks the day again and says what is wrong with it (lib/portal/audit-trail.ts).
 */
function DayInput(props: {
  name: 'from' | 'to';
  label: string;
  hint: string;
  value?: string;
  error: FilterError | null;
}) {
  const invalid = props.error?.field === props.name;
  return (
    <label>
      {props.label} <span className="hint">{props.hint}</span>
      <input
        name={props.name}
        defaultValue={props.value}
        inputMode="numeric"
        pattern="\d{4}-\d{2}-\d{2}"
        title="A UTC day written YYYY-MM-DD, e.g. 2026-11-26"
        placeholder="YYYY-MM-DD"
        autoComplete="off"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? FILTER_ERROR_ID : undefined}
      />
    </label>
  );
}

function pageHref(filters: AuditFilters, page: number): string {
  const query = new URLSearchParams();
  for (const name of ['key', 'actor', 'from', 'to'] as const) if (filters[name]) query.set(name, filters[name]!);
  if (page > 1) query.set('page', String(page));
  const qs = query.toString();
  return `/support/audit${qs ? `?${qs}` : ''}`;
}

export default async function AuditPageView({ searchParams }: { searchParams: Promise<Params> }) {
  const viewer = await requireStaffViewer('/support/audit');
  const params = await searchParams;
  const filters: AuditFilters = {
    key: text(params.key),
    actor: text(params.actor),
    from: text(params.from),
    to: text(params.to),
    page: Number(text(params.page)) || 1,
  };
  let trail: AuditPage | null = null;
  let error: FilterError | null = null;
  try {
    trail = await orNotFound(auditTrail(getDb(), viewer, filters));
  } catch (caught) {
    if (!(caught instanceof PortalInputError)) throw caught;
    error = { message: caught.message, field: caught.field };
  }
  const filtered = Boolean(filters.key || filters.actor || filters.from || filters.to);

  return (
    <>
      <h1>Audit trail</h1>
      <p className="muted">
        Every change to a key, a role or a messaging-app binding: who, what, before and after, why, when (UTC) and from
        which address.
      </p>
      <search aria-label="Filter the audit trail">
        <form method="get" className="filters">
          <label>
            Key <span className="hint">id, cf_abcd…wxyz or 4 characters</span>
            <input name="key" defaultValue={filters.key} autoComplete="off" />
          </label>
          <label>
            Actor <span className="hint">email, or part of it</span>
            <input name="actor" defaultValue={filters.actor} autoComplete="off" />
          </label>
          <DayInput name="from" label="From" hint="UTC day, YYYY-MM-DD" value={filters.from} error={error} />
          <DayInput name="to" label="To" hint="UTC day, YYYY-MM-DD, inclusive" value={filters.to} error={error} />
          <div className="actions">
            <button type="submit">Filter</button>
            {filtered ? <Link href="/support/audit">Clear filters</Link> : null}
          </div>
        </form>
      </search>
      {error ? (
        <p id={FILTER_ERROR_ID} className="alert error" role="alert">
          {error.message}
        </p>
      ) : null}
      {trail ? (
        <>
          <AuditTable
            events={trail.events}
            caption={
              trail.total
                ? `${trail.total} event${trail.total === 1 ? '' : 's'}${filtered ? ' match' : ''}, newest first; page ${trail.page} of ${trail.pages}`
                : 'No events'
            }
          />
          {trail.pages > 1 ? (
            <nav className="pagination" aria-label="Pages">
              {trail.page > 1 ? (
                <Link href={pageHref(filters, trail.page - 1)} rel="prev">
                  ← Newer
                </Link>
              ) : null}
              <span>
                Page {trail.page} of {trail.pages}
              </span>
              {trail.page < trail.pages ? (
                <Link href={pageHref(filters, trail.page + 1)} rel="next">
                  Older →
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : null}
    </>
  );
}
