import type { Metadata } from 'next';
import Link from 'next/link';
import { When } from '@/components/When.tsx';
import { getDb } from '@/lib/db/client.ts';
import { listUsers } from '@/lib/portal/users.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { RoleForm } from './RoleForm.tsx';
import '@/components/support/support.css';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';

export const metadata: Metadata = { title: 'Users' };

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<{ email?: string }> }) {
  const viewer = await requireViewer('/admin/users');
  const { email: raw } = await searchParams;
  const email = typeof raw === 'string' ? raw.trim() : '';
  const { users, truncated } = await orNotFound(listUsers(getDb(), viewer, { email }));
  return (
    <>
      <h1>Users</h1>
      <p className="muted">
        Grant the support role to customer-service staff and admin to those who grant roles. Every change is in the{' '}
        <Link href="/support/audit">audit trail</Link>.
      </p>
      <search aria-label="Filter users">
        <form method="get" className="search-form">
          <label>
            Email <span className="hint">whole or part</span>
            <input name="email" type="search" defaultValue={email} autoComplete="off" />
          </label>
          <button type="submit">Filter</button>
          {email ? <Link href="/admin/users">Show all</Link> : null}
        </form>
      </search>
      <h2>
        {email ? `Users matching “${email}”` : 'All users'}{' '}
        <span className="muted">
          ({users.length}
          {truncated ? '+' : ''})
        </span>
      </h2>
      {users.length ? (
        <ScrollRegion label="Users">
          <table>
            <thead>
              <tr>
                <th>Email</th>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th className="num">Keys</th>
                <th>Change</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link href={`/support?q=${encodeURIComponent(u.email)}`}>{u.email}</Link>
                  </td>
                  <td>{u.name ?? '—'}</td>
                  <td>
                    <span className="badge">{u.role}</span>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <When date={u.createdAt} />
                  </td>
                  <td className="num">{u.keys}</td>
                  <td>
                    <RoleForm userId={u.id} email={u.email} role={u.role} self={u.id === viewer.id} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="empty">No user’s email contains “{email}”.</p>
      )}
      {truncated ? <p className="muted">Showing the first {users.length}; filter by email to find others.</p> : null}
    </>
  );
}
