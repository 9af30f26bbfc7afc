import { requireViewer } from '@/lib/portal/viewer.ts';

export default async function KeysPage() {
  const viewer = await requireViewer('/keys');
  return <h1>Keys of {viewer.email}</h1>;
}
