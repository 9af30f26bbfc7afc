import type { Metadata } from 'next';
import { requireStaffViewer } from '@/lib/portal/viewer.ts';
import { LeakForm } from './LeakForm.tsx';

export const metadata: Metadata = { title: 'Leaked keys' };

export default async function LeaksPage() {
  await requireStaffViewer('/support/leaks');
  return (
    <>
      <h1>Leaked keys</h1>
      <p className="muted">
        Found secrets in a public repository, a paste site or a customer’s screenshot? Paste the text here: every
        matching key stops working at once and each sighting is written to the audit trail. Owners then reissue their
        key (or you do it for them from the key’s page).
      </p>
      <LeakForm />
    </>
  );
}
