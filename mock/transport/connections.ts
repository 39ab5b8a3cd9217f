/**
 * What the mock keeps of its connections so that none of them can hurt the
 * others (issue 12, findings 6, 7 and 8):
 *
 * - a cap: past `maxConnections` the oldest connection with nothing in
 *   progress (silent since it opened, or idle between requests) makes room,
 *   so silent connections cannot use up the process's file descriptors and
 *   block everyone; when every connection is busy, the new one is refused;
 * - an inactivity timeout per request: a client that stops reading an
 *   answer is cut once nothing moved for `idleTimeoutMs`, and the answer's
 *   buffered bytes are freed with its socket. One sweep over the busy
 *   connections does it, rather than a socket timer re-armed per request:
 *   re-arming (Node drops the timer between keep-alive requests) allocated a
 *   timer and two listeners per request and cost GET /pets/{petId} about a
 *   tenth of its throughput (bench, 0.78x against 0.88x of bare node:http);
 * - a graceful close that waits for every answer already started until its
 *   bytes are flushed. Node's server.close() sweeps connections it thinks idle,
 *   and it counts a response that is ended but not yet flushed as idle
 *   (closeIdleConnections looks at `finished`, set by end()); a slow reader
 *   then gets a truncated answer and a clean close. Here a connection is busy
 *   until its response's 'finish' (the last byte handed to the OS).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly idleTimeoutMs: number;
}

export interface ConnectionOptions extends ConnectionLimits {
  /** Told of each connection cut for inactivity, for the log. */
  readonly log?: (line: string) => void;
}

export interface Connections {
  /** Marks the request's connection busy until its response is flushed or the connection closes. */
  track(req: IncomingMessage, res: ServerResponse): void;
  /** Whether the connection is in the middle of an answer whose status line has been written. */
  answerStarted(socket: Socket): boolean;
  /** Stops accepting, ends idle connections now and busy ones once their answer is flushed, and cuts what is left after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/** The response a connection is answering (or last answered), kept on the socket itself: see track(). */
const CURRENT = Symbol('petstore-kit current response');
type TrackedSocket = Socket & { [CURRENT]?: ServerResponse };

/** Whether the connection is in the middle of a request: its response is not yet handed to the OS in full. */
function isBusy(socket: TrackedSocket): boolean {
  const res = socket[CURRENT];
  return res !== undefined && !res.writableFinished && !res.destroyed;
}

export function guardConnections(server: Server, { maxConnections, idleTimeoutMs, log }: ConnectionOptions): Connections {
  // A Set keeps insertion order: the first idle entry is the oldest idle connection.
  const open = new Set<TrackedSocket>();
  /** For each busy connection the sweep has seen: its bytes read and written then, and since when they stood still. */
  const watched = new Map<Socket, { moved: number; since: number }>();
  let closing = false;

  // A busy connection whose byte counts stood still for idleTimeoutMs is cut: the client stopped reading the
  // answer (bytesWritten stops growing once the answer waits on 'drain') or sending the body (bytesRead).
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const socket of open) {
      if (!isBusy(socket)) {
        watched.delete(socket);
        continue;
      }
      const moved = socket.bytesRead + socket.bytesWritten;
      const seen = watched.get(socket);
      if (!seen || seen.moved !== moved) watched.set(socket, { moved, since: now });
      else if (now - seen.since >= idleTimeoutMs) {
        log?.(`connection from ${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'} cut: nothing moved for ${idleTimeoutMs} ms (--idle-timeout)`);
        socket.destroy();
      }
    }
  }, Math.max(50, Math.min(1000, Math.floor(idleTimeoutMs / 4))));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections && !evictIdle()) {
      socket.destroy();
      return;
    }
    open.add(socket);
    // Node's own timer (keepAliveTimeout between requests): the connection has been idle that long.
    socket.on('timeout', () => socket.destroy());
    socket.once('close', () => {
      open.delete(socket);
      watched.delete(socket);
      (socket as TrackedSocket)[CURRENT] = undefined;
    });
  });

  const evictIdle = (): boolean => {
    for (const socket of open) {
      if (isBusy(socket)) continue;
      socket.destroy();
      open.delete(socket);
      return true;
    }
    return false;
  };

  // What server.close() calls to sweep idle connections (Node >= 19): only those with nothing unflushed.
  server.closeIdleConnections = () => {
    for (const socket of open) if (!isBusy(socket)) socket.destroy();
  };

  return {
    track(req, res) {
      // One property store per request, no listener: a 'close' listener per response, and the Set entries it
      // maintained, cost POST /pets about 0.5 µs a request (bench/README.md). Busy-ness is read when it is
      // needed (the sweep, the cap, a close) from the response itself.
      (req.socket as TrackedSocket)[CURRENT] = res;
    },
    answerStarted(socket) {
      const res = (socket as TrackedSocket)[CURRENT];
      return res !== undefined && res.headersSent && isBusy(socket as TrackedSocket);
    },
    close(graceMs) {
      return new Promise<void>((done) => {
        if (closing) {
          server.once('close', () => done());
          return;
        }
        closing = true;
        // An answer in flight was started keep-alive: end its connection once the answer is flushed (or cut).
        // Answers started from now on say `Connection: close` (server.ts), so Node ends theirs.
        for (const socket of open) {
          const res = socket[CURRENT];
          if (res !== undefined && isBusy(socket)) res.once('close', () => socket.end());
        }
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          done();
        });
      });
    },
  };
}
