/**
 * Spec §5.7: all requests must use HTTPS. Plain HTTP is still accepted from loopback addresses, so the
 * quick start works on localhost while nothing else travels in clear. Behind a TLS-terminating proxy,
 * TRUST_PROXY=1 makes X-Forwarded-Proto/-For the truth; without it those headers are ignored, since
 * any client could send them. REQUIRE_HTTPS=0 turns the check off (private networks).
 */
import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { ServiceConfig } from '../config.ts';

interface Transport {
  secure: boolean;
  clientAddress: string;
}

function firstListed(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

export function describeTransport(req: IncomingMessage, settings: Pick<ServiceConfig, 'trustProxy'>): Transport {
  const socketAddress = req.socket.remoteAddress ?? '';
  if (settings.trustProxy) {
    const proto = firstListed(req.headers['x-forwarded-proto'])?.toLowerCase();
    return {
      secure: proto ? proto === 'https' : req.socket instanceof TLSSocket,
      clientAddress: firstListed(req.headers['x-forwarded-for']) ?? socketAddress,
    };
  }
  return { secure: req.socket instanceof TLSSocket, clientAddress: socketAddress };
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Why a request must be refused, or null. */
export function plainHttpRefusal(transport: Transport, settings: Pick<ServiceConfig, 'requireHttps'>): string | null {
  if (!settings.requireHttps || transport.secure || isLoopback(transport.clientAddress)) return null;
  return 'This service accepts HTTPS only; plain HTTP is allowed from this machine (loopback) alone. Use the https:// address.';
}

export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

/**
 * server.ts stamps every request it hands to Next with the client's address under this header (over
 * whatever the client sent), so portal code (sign-in throttling, audit IPs) sees the same address the
 * transport check used. Next is reached only through server.ts, under `npm run dev` too.
 */
export const CLIENT_IP_HEADER = 'x-chemflow-client-ip';
