/** server.ts's /mcp: a node:http request as the handler's McpRequest, and its answer written back. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BodyText, INVALID_UTF8, type McpAnswer, type McpRequest, TOO_LARGE } from './request.ts';

/**
 * Strict UTF-8: malformed bytes throw instead of becoming U+FFFD. One decoder serves every request
 * (a decode without `stream` keeps no state). ignoreBOM keeps a byte-order mark as text, as
 * Buffer#toString did, so JSON.parse still refuses it.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function nodeMcpRequest(req: IncomingMessage, origin: string, clientAddress: string): McpRequest {
  const header = (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: req.method ?? 'GET',
    url: `${origin}${req.url ?? '/'}`,
    headers: { get: header },
    clientAddress,
    readText: (limit) => readBody(req, limit),
    toWebRequest() {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else headers.set(name, value);
      }
      return new Request(this.url, { method: this.method, headers });
    },
  };
}

/**
 * Reads the request body, giving up past `limit` bytes (first on the declared Content-Length). The
 * stream is left alone rather than destroyed, so the client still receives the 413; writeMcpAnswer
 * closes the connection after it.
 */
function readBody(req: IncomingMessage, limit: number): Promise<BodyText> {
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).off('error', reject);
      req.resume(); // drain the rest
      resolve(TOO_LARGE);
    };
    const onEnd = () => resolve(decodeUtf8(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

function decodeUtf8(bytes: Buffer): BodyText {
  try {
    return UTF8.decode(bytes);
  } catch {
    return INVALID_UTF8;
  }
}

/**
 * Sends the answer in one write with its Content-Length. /mcp is stateless, so even an SSE answer is
 * one complete event.
 */
export function writeMcpAnswer(req: IncomingMessage, res: ServerResponse, answer: McpAnswer): void {
  const headers = answer.headers;
  if (answer.body !== null) headers['content-length'] = String(Buffer.byteLength(answer.body));
  // Refused before its body was read (413, 415, …): close the connection rather than leave the
  // client's unsent body in the way of the next request on it. And the SDK-form headers say
  // "keep-alive", which must not overrule node when it will not keep the connection: the client asked
  // to close it, or the server is stopping (lib/http/graceful-close.ts).
  if (!req.complete || !res.shouldKeepAlive) headers.connection = 'close';
  const send = () => {
    // The body guard (lib/http/body-guard.ts) may have refused the upload meanwhile, and answered.
    if (res.headersSent) return;
    res.writeHead(answer.status, headers);
    res.end(answer.body ?? undefined);
  };
  if (req.complete) {
    send();
    return;
  }
  // A client still uploading the body we refused would meet a closed socket (EPIPE), not our answer:
  // drain what it sends (discarded) and answer at its end, or after DRAIN_LIMIT_MS whatever it is doing.
  const timer = setTimeout(send, DRAIN_LIMIT_MS);
  req.once('end', () => {
    clearTimeout(timer);
    if (!res.headersSent) send();
  });
  req.resume();
}

/** How long a refused upload is drained before the answer goes out regardless. */
const DRAIN_LIMIT_MS = 2000;
