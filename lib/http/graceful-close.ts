/**
 * Closing the HTTP(S) server without cutting a request off. node's server.close() stops accepting
 * connections and closes the idle keep-alive ones, but it falls short twice under load:
 * - a connection busy with a request is answered "Connection: keep-alive" and then stays open, serving
 *   whatever its client sends next, until its keep-alive timeout (65 s): the close never completes and
 *   the process is forced out with requests in flight;
 * - a connection is "idle" as soon as the server has not read a next request from it yet, so a request
 *   its client has already sent, still on its way or unread in the socket, is reset unanswered.
 * Here, from the close on, every answer says "Connection: close", the answers to the requests already
 * in flight included: node ends each connection once its answer is written, and the client sends
 * nothing more on it. Idle connections get a short linger first, so requests already sent on them are
 * read and answered (and their connection closed) rather than reset. The close completes when the last
 * connection has ended.
 */
import type http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** Far longer than a request already sent takes to be read; a client idle this long is not mid-request. */
const IDLE_LINGER_MS = 1000;

/** node's own name for the answer a connection is writing (closeIdleConnections reads it too). */
type ServingSocket = net.Socket & { _httpMessage?: http.ServerResponse | null };

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
  const closeIdleSoon = () => {
    // setImmediate: what arrived meanwhile is read first (the poll phase runs before it), even if the
    // event loop was too busy to run the timer on time.
    setTimeout(() => setImmediate(() => server.closeIdleConnections()), IDLE_LINGER_MS).unref();
  };

  return () => {
    // net.Server's close: stop accepting, call back once every connection has ended. http's own close
    // would also close the idle connections at once, resetting requests already sent on them.
    const closed = new Promise<void>((resolve, reject) =>
      net.Server.prototype.close.call(server, (error) => (error ? reject(error) : resolve())),
    );
    // Requests that arrive from now on, on connections already open: answered, then their connection ends.
    server.prependListener(
      'request',
      (_req: http.IncomingMessage, res: http.ServerResponse) => (res.shouldKeepAlive = false),
    );
    for (const socket of sockets) {
      const res = socket._httpMessage;
      if (!res || res.writableFinished) continue;
      if (!res.headersSent) res.shouldKeepAlive = false;
      // Already sent "keep-alive": once the answer is out, the connection is an idle one like the others.
      else res.once('finish', closeIdleSoon);
    }
    closeIdleSoon();
    return closed;
  };
}
