/**
 * Request bodies sent over a raw socket, so a test sees exactly what the server did with them: the
 * answer (if any), and whether the server closed the connection. A body is sent with a declared
 * Content-Length or chunked, all at once or trickled; headers can be trickled too.
 */
import net from 'node:net';

export interface ProbeAnswer {
  /** The answer's status; undefined when the server closed without answering. */
  status?: number;
  /** The answer's JSON body, when it was JSON. */
  json?: { error?: string; message?: string };
  /** The server closed the connection (the probe itself never closes first, except at `giveUpMs`). */
  closedByServer: boolean;
}

export interface ProbeTarget {
  port: number;
  /** The client socket's own address (e.g. 127.0.0.2: Linux routes all of 127/8 to the loopback). */
  localAddress?: string;
}

interface Probe {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent after the headers: a Buffer at once, or one byte every `trickleMs` until the server closes. */
  body?: Buffer | { trickleMs: number };
  chunked?: boolean;
  /** The header block's bytes are sent one every this many milliseconds (a slow-headers client). */
  trickleHeadersMs?: number;
  /** Stop waiting (and close) after this long; generous, as a guard against a hang. */
  giveUpMs?: number;
}

function parseAnswer(raw: Buffer): Pick<ProbeAnswer, 'status' | 'json'> {
  const text = raw.toString('latin1');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  if (!status) return {};
  const end = text.indexOf('\r\n\r\n');
  const head = text.slice(0, end).toLowerCase();
  let json: ProbeAnswer['json'];
  if (/\r\ncontent-type: *application\/json/.test(head)) {
    const body = raw.subarray(end + 4);
    const length = /\r\ncontent-length: *(\d+)/.exec(head)?.[1];
    try {
      json = JSON.parse((length ? body.subarray(0, Number(length)) : dechunked(body)).toString('utf8'));
    } catch {}
  }
  return { status: Number(status), json };
}

/** A chunked body's content ("<hex size>\r\n<bytes>\r\n" … "0\r\n\r\n"). */
function dechunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = lineEnd < 0 ? 0 : Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Sends the probe and resolves when the server closed the connection (or at giveUpMs). */
export function probe(target: ProbeTarget, request: Probe): Promise<ProbeAnswer> {
  const { method = 'POST', path, headers = {}, body, chunked = false, trickleHeadersMs, giveUpMs = 60_000 } = request;
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: target.port, localAddress: target.localAddress });
    const received: Buffer[] = [];
    let closedByServer = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ...parseAnswer(Buffer.concat(received)), closedByServer });
    };
    const giveUp = setTimeout(finish, giveUpMs);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', finish);
    // A write the server refused mid-upload fails with EPIPE or a reset; what it answered is still read.
    socket.on('error', () => {
      closedByServer = true;
    });

    const lines = [`${method} ${path} HTTP/1.1`, `host: localhost:${target.port}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (chunked) lines.push('transfer-encoding: chunked');
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

    const sendBody = () => {
      if (body === undefined) return;
      if (Buffer.isBuffer(body)) {
        if (chunked) {
          socket.write(`${body.length.toString(16)}\r\n`);
          socket.write(body);
          socket.write('\r\n0\r\n\r\n');
        } else socket.write(body);
        return;
      }
      timer = setInterval(() => {
        if (!socket.writable) return;
        socket.write(chunked ? '1\r\na\r\n' : 'a');
      }, body.trickleMs);
    };
    socket.once('connect', () => {
      if (trickleHeadersMs === undefined) {
        socket.write(head);
        sendBody();
        return;
      }
      let at = 0;
      timer = setInterval(() => {
        if (at < head.length && socket.writable) socket.write(head.subarray(at, ++at));
      }, trickleHeadersMs);
    });
  });
}
