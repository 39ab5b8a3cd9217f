#!/usr/bin/env node
// The yardstick of the proxy section of `npm run bench`: the least a reverse proxy does on node:http. Each request
// is sent on with http.request over a keep-alive agent (headers as received, but Host and the hop-by-hop Connection
// and Keep-Alive), its body piped; the answer's status and headers are written back and its body piped. No
// validation, no copy kept: what `petstore-kit proxy` adds over it is what its judging and its care cost.
//
//   node bench/bare-proxy.mjs --target http://127.0.0.1:PORT [--port 0] [--host 127.0.0.1]
// prints `listening on http://HOST:PORT` once serving and stops on SIGINT/SIGTERM.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { listenUntilSignal } from './lib/serve.mjs';

const { values } = parseArgs({ options: { target: { type: 'string' }, port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } } });
if (!values.target) {
  console.error('usage: bare-proxy.mjs --target URL [--port 0] [--host 127.0.0.1]');
  process.exit(2);
}
const target = new URL(values.target);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding']);

const server = http.createServer((req, res) => {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP.has(name)) headers[name] = value;
  const upstream = http.request({ agent, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
    const out = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP.has(name)) out[name] = value;
    res.writeHead(answer.statusCode ?? 502, out);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});

listenUntilSignal(server, values.host, Number(values.port));
