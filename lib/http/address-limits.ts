/**
 * What one address may hold of the server at a time, so no single address can take every socket or fill
 * the heap with bodies:
 * - open connections, by the socket's address (the only one known when a connection opens; behind the
 *   proxy it is the proxy's);
 * - requests in flight, by the trusted client address (behind the proxy, the forwarded one).
 * The excess gets 429 with a message saying what to do.
 */
import type http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

/** A count per address; an address leaves the map when its count drops to zero. */
class Counts {
  private readonly counts = new Map<string, number>();

  add(address: string): number {
    const count = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, count);
    return count;
  }

  remove(address: string): void {
    const count = (this.counts.get(address) ?? 1) - 1;
    if (count > 0) this.counts.set(address, count);
    else this.counts.delete(address);
  }
}

const json = (error: string, message: string) => JSON.stringify({ error, message });

/**
 * Refuses connections beyond `max` open from one socket address (0: no cap). Over plain HTTP the
 * excess connection is answered 429 and closed; over TLS, before any handshake, it is closed.
 */
export function capConnectionsPerAddress(server: http.Server | https.Server, max: number): void {
  if (max === 0) return;
  const open = new Counts();
  const tls = server instanceof https.Server;
  const body = json(
    'too_many_connections',
    `This address has ${max} connections open to the server, the most it accepts from one address. Reuse keep-alive connections, or close idle ones, and retry.`,
  );
  const refusal = [
    'HTTP/1.1 429 Too Many Requests',
    'content-type: application/json',
    'cache-control: no-store',
    'retry-after: 1',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
  // Before node's own listener, so a refused connection is closed before it is served.
  server.prependListener('connection', (socket: net.Socket) => {
    const address = socket.remoteAddress ?? '';
    socket.once('close', () => open.remove(address));
    if (open.add(address) <= max) return;
    if (tls) return void socket.destroy();
    socket.on('error', () => {});
    socket.end(refusal, () => socket.destroy());
  });
}

/** A request that arrived on a connection refused above: it is not served (its answer was the 429). */
export function onRefusedConnection(req: http.IncomingMessage): boolean {
  return req.socket.writableEnded;
}

/** Requests in flight per client address; the answer's end (or the connection's loss) releases its place. */
export class RequestsInFlight {
  private readonly inFlight = new Counts();

  /** 0: no cap. */
  constructor(private readonly max: number) {}

  /** Counts the request until its answer is done; false (nothing counted) when its address is at the cap. */
  admit(address: string, res: http.ServerResponse): boolean {
    if (this.max === 0) return true;
    if (this.inFlight.add(address) > this.max) {
      this.inFlight.remove(address);
      return false;
    }
    res.once('close', () => this.inFlight.remove(address));
    return true;
  }

  get refusalMessage(): string {
    return `This address has ${this.max} requests in progress, the most the server takes from one address at a time. Wait for an answer before sending more, and retry.`;
  }
}
