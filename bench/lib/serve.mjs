// How the bench's own servers (baseline-server.mjs, floor-server.mjs) listen and stop: the
// `listening on URL` line the bench waits for (procs.mjs), and a prompt exit on SIGINT/SIGTERM,
// since the bench stops every server it started by its PID.

/** Listens on host:port, prints `listening on http://HOST:PORT` once serving, and exits on SIGINT or SIGTERM. */
export function listenUntilSignal(server, host, port) {
  server.listen(port, host, () => {
    const { address, port: actual } = server.address();
    process.stdout.write(`listening on http://${address}:${actual}\n`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
