/**
 * Sends a generated request exactly as described (test/support/mcp-arbitraries.ts): any method, bytes as
 * the body, repeated headers, Content-Length or chunked. node:http rather than fetch, because fetch
 * refuses header values outside Latin-1 and cannot repeat a header or choose chunked encoding.
 */
import http from 'node:http';
import type { FuzzRequest } from './mcp-arbitraries.ts';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Keep-alive connections shared by the fuzz runs, as a real client pool would hold them. */
export const fuzzAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** No answer within this long is a hang, reported as a failure (generous for a loaded 2-core machine). */
const ANSWER_TIMEOUT_MS = 30_000;

export function sendRaw(baseUrl: string, request: FuzzRequest): Promise<RawAnswer> {
  const url = new URL(request.path, baseUrl);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
  const headers: http.OutgoingHttpHeaders = { ...request.headers };
  // node:http streams chunked only for methods expected to carry a body; other methods' bodies need a length.
  const chunked = !request.contentLength && ['POST', 'PUT', 'PATCH'].includes(request.method);
  if (!chunked) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: request.method, headers, agent: fuzzAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    // A write before end() makes node:http stream the body chunked; end(body) alone would add a length.
    if (chunked && body.length) req.write(body);
    req.end(chunked ? undefined : body);
  });
}
