/**
 * Closing the HTTP(S) server without cutting a request off. node's server.close() stops accepting
 * connections and closes the idle keep-alive ones, but a connection busy with a request is answered
 * "Connection: keep-alive" and then stays open, serving whatever its client sends next, until its
 * keep-alive timeout (65 s): under steady load the close never completes and the process is forced
 * out with requests in flight. Here, from the close on, every answer says "Connection: close", the
 * answers to the requests already in flight included: node then ends each connection once its answer
 * is written, and the client sends nothing more on it, so no request can arrive on a connection that
 * is being closed. The close completes when the last answer is out.
 */
import type http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

/** node's own name for the answer a connection is writing (closeIdleConnections reads it too). */
type ServingSocket = Socket & { _httpMessage?: http.ServerResponse | null };

/**
 * Starts tracking the server's connections (one set entry per connection, nothing per request) and
 * returns the close: it stops accepting at once and resolves when every connection has ended.
 */
export function trackConnections(server: http.Server | https.Server): () => Promise<void> {
  const sockets = new Set<ServingSocket>();
  // HTTPS serves on the TLS socket, which 'secureConnection' gives; 'connection' gives the raw TCP one.
  server.on(server instanceof https.Server ? 'secureConnection' : 'connection', (socket: ServingSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return () => {
    const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    // Requests that arrive from now on, on connections already open: answered, then their connection ends.
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => (res.shouldKeepAlive = false));
    for (const socket of sockets) {
      const res = socket._httpMessage;
      if (!res || res.writableFinished) continue;
      if (!res.headersSent) res.shouldKeepAlive = false;
      // Already sent "keep-alive": once the answer is out the connection is idle, and closing it then is all that is left.
      else res.once('finish', () => server.closeIdleConnections());
    }
    return closed;
  };
}
