/**
 * Portal page loads: a signed-in developer and a signed-in support user each load their pages, one
 * after another, every few seconds, each page for a different key in turn. Every page must answer 200
 * (a redirect would mean the session was lost; the usage routes must answer JSON).
 */
import type { KeySlot } from './mcp-load.ts';
import { describeError, type Observations } from './observations.ts';
import type { PortalSession } from './portal-client.ts';

export interface PortalPage {
  /** Short name for the table ("/keys/<id>"). */
  name: string;
  path: string;
  json?: boolean;
}

export function developerPages(slot: KeySlot): PortalPage[] {
  return [
    { name: '/keys', path: '/keys' },
    { name: '/keys/<id>', path: `/keys/${slot.keyId}` },
    { name: '/api/portal/keys/<id>/usage', path: `/api/portal/keys/${slot.keyId}/usage`, json: true },
  ];
}

export function supportPages(slot: KeySlot): PortalPage[] {
  return [
    { name: '/support', path: '/support' },
    { name: '/support?q=<owner>', path: '/support?q=soak-dev' },
    { name: '/support/keys/<id>', path: `/support/keys/${slot.keyId}` },
    { name: '/api/support/keys/<id>/usage', path: `/api/support/keys/${slot.keyId}/usage`, json: true },
    { name: '/support/audit', path: '/support/audit' },
  ];
}

export async function loadPages(
  session: PortalSession,
  pages: PortalPage[],
  observations: Observations,
): Promise<void> {
  for (const page of pages) {
    const kind = page.json ? 'usage JSON' : 'page';
    const what = `${kind} ${page.name} (${session.email})`;
    try {
      const answer = await session.request('GET', page.path);
      if (answer.status !== 200) {
        observations.fail(kind, `${answer.status}`, what, `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
        continue;
      }
      if (page.json) JSON.parse(answer.text);
      observations.count(kind, '200');
    } catch (error) {
      observations.fail(kind, 'no answer', what, describeError(error));
    }
  }
}
