/**
 * Every request body is counted as the HTTP parser delivers it, before any reader sees it, so the cap
 * (lib/http/body-caps.ts) and the pace hold whoever reads the body: the /mcp handler, Next, Auth.js, a
 * server action, a route added later.
 * - A declared Content-Length over the cap is refused before a byte is read; a body that crosses the
 *   cap while streaming (chunked) is cut off there. Either way the rest of what the client sends is
 *   discarded (for at most DRAIN_LIMIT_MS, so a client still uploading reads the answer instead of a
 *   reset), then it gets 413 and the connection is closed.
 * - A body that trickles (less than the minimum rate over a RATE_WINDOW_MS window) or takes longer
 *   than the body timeout gets 408, and the connection is closed.
 * The server must create its requests as GuardedRequest (http.createServer's IncomingMessage option).
 */
import { IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type BodyCap, bodyCapFor, DEFAULT_BODY_CAP, tooLargeMessage } from './body-caps.ts';

/** No headers beyond the refusal's own. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** How long a refused upload is read and discarded before the answer goes out regardless. */
const DRAIN_LIMIT_MS = 2000;
/** The minimum rate is judged over windows this long: long enough for a TCP stall on a real network. */
const RATE_WINDOW_MS = 5000;
const SWEEP_MS = 1000;

export interface BodyPace {
  /** The whole body must arrive within this long. */
  timeoutMs: number;
  /** And at no fewer than this many bytes a second, over each window (0: no minimum). */
  minBytesPerSecond: number;
}

/**
 * A request with its body's count. The fields live on the request itself (one shape for every
 * request), so watching a body allocates nothing beyond a set entry.
 */
export class GuardedRequest extends IncomingMessage {
  guard: BodyGuard | null = null;
  response: ServerResponse | null = null;
  cap: BodyCap = DEFAULT_BODY_CAP;
  /** Sent with a refusal besides its own (the CORS grant of a browser client on /mcp). */
  refusalHeaders: Readonly<Record<string, string>> = NO_HEADERS;
  received = 0;
  startedAt = 0;
  windowStart = 0;
  windowReceived = 0;
  /** Refused: what still arrives is discarded; the answer goes out at the body's end (or the drain limit). */
  refusal: (() => void) | null = null;

  // biome-ignore lint/suspicious/noExplicitAny: Readable#push's own signature
  override push(chunk: any, encoding?: BufferEncoding): boolean {
    return this.guard ? this.guard.take(this, chunk, encoding) : super.push(chunk, encoding);
  }

  /**
   * node's discard of a body left unread when the answer was sent: node's own skips push, so the rest
   * would go uncounted for as long as the client sends it. Flowing with no listener discards it through
   * push instead, counted against the cap and the pace.
   */
  _dump(): void {
    if (!this.guard) {
      nodeDump.call(this);
      return;
    }
    this.removeAllListeners('data');
    this.resume();
  }
}

const nodeDump = (IncomingMessage.prototype as unknown as { _dump: () => void })._dump;

const readablePush = Readable.prototype.push;

export class BodyGuard {
  private readonly watched = new Set<GuardedRequest>();

  constructor(private readonly pace: BodyPace) {
    setInterval(() => this.sweep(Date.now()), SWEEP_MS).unref();
  }

  /**
   * Starts counting the request's body against its path's cap. False when the request was refused
   * (its declared length is over the cap): the guard answers it, the caller does nothing more.
   */
  admit(
    req: GuardedRequest,
    res: ServerResponse,
    path: string,
    refusalHeaders: Readonly<Record<string, string>> = NO_HEADERS,
  ): boolean {
    const length = req.headers['content-length'];
    if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return true;
    const now = Date.now();
    req.guard = this;
    req.response = res;
    req.cap = bodyCapFor(path);
    req.refusalHeaders = refusalHeaders;
    req.startedAt = req.windowStart = now;
    this.watched.add(req);
    if (Number(length) > req.cap.bytes) {
      this.refuseTooLarge(req);
      return false;
    }
    return true;
  }

  /** The parser's push, counted: forwarded while within the cap; discarded once refused. */
  take(req: GuardedRequest, chunk: Buffer | null, encoding?: BufferEncoding): boolean {
    if (req.refusal) {
      if (chunk === null) req.refusal();
      return true;
    }
    if (chunk === null) {
      this.watched.delete(req);
      req.guard = null;
      return readablePush.call(req, null);
    }
    req.received += chunk.length;
    if (req.received > req.cap.bytes) {
      this.refuseTooLarge(req);
      return true;
    }
    return readablePush.call(req, chunk, encoding);
  }

  private refuseTooLarge(req: GuardedRequest): void {
    const answer = () => this.answer(req, 413, 'payload_too_large', tooLargeMessage(req.cap));
    const timer = setTimeout(answer, DRAIN_LIMIT_MS).unref();
    req.refusal = () => {
      clearTimeout(timer);
      answer();
    };
    this.watched.delete(req);
  }

  private refuseSlow(req: GuardedRequest): void {
    req.refusal = () => {};
    this.watched.delete(req);
    const seconds = this.pace.timeoutMs / 1000;
    this.answer(
      req,
      408,
      'request_timeout',
      `The request body arrived too slowly: it must come at ${this.pace.minBytesPerSecond} bytes a second or faster, and whole within ${seconds} s. Send the body as soon as the headers.`,
    );
  }

  /** The refusal, then the connection closes: the reader still waiting for the body sees it aborted. */
  private answer(req: GuardedRequest, status: number, error: string, message: string): void {
    const res = req.response!;
    if (res.headersSent) return void req.socket.destroy();
    const body = JSON.stringify({ error, message });
    res.writeHead(status, {
      ...req.refusalHeaders,
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
    // node closes the connection once the answer is written; a client that does not read it is cut off.
    setTimeout(() => req.socket.destroy(), DRAIN_LIMIT_MS).unref();
  }

  /** Once a second: bodies past the timeout, or slower than the minimum over their last window, are refused. */
  private sweep(now: number): void {
    for (const req of this.watched) {
      if (req.socket.destroyed) {
        this.watched.delete(req);
        continue;
      }
      if (now - req.startedAt > this.pace.timeoutMs) {
        this.refuseSlow(req);
        continue;
      }
      const elapsed = now - req.windowStart;
      if (elapsed < RATE_WINDOW_MS) continue;
      // A reader that has not taken what arrived stops the socket's reads: that stall is not the client's.
      const readerBehind = req.readableLength >= req.readableHighWaterMark;
      if (!readerBehind && (req.received - req.windowReceived) * 1000 < this.pace.minBytesPerSecond * elapsed) {
        this.refuseSlow(req);
        continue;
      }
      req.windowStart = now;
      req.windowReceived = req.received;
    }
  }
}
