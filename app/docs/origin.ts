/**
 * The origin a visitor reached the portal on, for snippets they can paste as they are. The Host header
 * is checked against a plain host[:port] shape (anything else falls back to the default), and the
 * scheme comes from X-Forwarded-Proto, which Next fills in from the connection when no proxy did.
 */
import { headers } from 'next/headers';

export const DEFAULT_ORIGIN = 'http://localhost:3000';
const HOST_SHAPE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get('x-forwarded-host')?.split(',', 1)[0].trim() || list.get('host');
  if (!host || !HOST_SHAPE.test(host)) return DEFAULT_ORIGIN;
  const proto = list.get('x-forwarded-proto')?.split(',', 1)[0].trim().toLowerCase();
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
}
