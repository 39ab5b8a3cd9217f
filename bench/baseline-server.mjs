#!/usr/bin/env node
// The yardstick of `npm run bench`: a bare node:http server that answers each
// benchmarked request with a fixed response of the same size as the mock's
// (same status, same headers, same body bytes), so the ratio mock/baseline
// measures what the mock's design costs and nothing else.
//
// Started as its own process, like the mock:
//   node bench/baseline-server.mjs [--port 0] [--host 127.0.0.1] [--responses FILE]
// prints `listening on http://HOST:PORT` once serving and stops on SIGINT/SIGTERM.
//
// --responses FILE replaces the built-in answers with the ones the bench
// recorded from the mock (JSON: { key: { status, headers, body } }, keys as in
// DEFAULT_RESPONSES). Routing is by method and path prefix only; a POST body
// is read and parsed with JSON.parse, as any JSON API has to, and a POST
// /pets body without a string `name` gets the 400 answer.
//
// For a document other than the Pet Store the recorded file is
// { routes: { 'GET /path?query': { status, headers, body } } } instead: each
// request is answered by one Map lookup of its method and target, exactly as
// recorded (any other gets the 404), a body read and parsed first when it has one.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { listenUntilSignal } from './lib/serve.mjs';

const JSON_TYPE = 'application/json; charset=utf-8';
const DEPRECATION = {
  deprecation: '@1767225600',
  sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
  link: '</pets?id=1>; rel="successor-version", <https://petstore.example.com/docs/deprecations#getPet>; rel="deprecation"; type="text/html"',
};
const pet = (id, status = 'available') => ({ id, name: `Pet number ${id}`, categoryId: 1 + (id % 4), status });

/** Representative answers, used when the bench could not record the mock's own. */
export const DEFAULT_RESPONSES = {
  getPet: { status: 200, headers: { 'content-type': JSON_TYPE, ...DEPRECATION }, body: JSON.stringify(pet(1)) },
  listPets: {
    status: 200,
    headers: { 'content-type': JSON_TYPE, 'x-total-count': '20' },
    body: JSON.stringify(Array.from({ length: 20 }, (_, i) => pet(i + 1))),
  },
  createPet: { status: 201, headers: { 'content-type': JSON_TYPE, location: '/pets/21' }, body: JSON.stringify(pet(21)) },
  rejectPet: {
    status: 400,
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify({
      code: 'VALIDATION_FAILED',
      message: 'The request does not match the contract; see details.',
      status: 400,
      details: [
        { path: '/body', message: "must have required property 'name'" },
        { path: '/body/categoryId', message: 'must be >= 1' },
        { path: '/body/status', message: 'must be equal to one of the allowed values: available, pending, sold' },
        { path: '/body/colour', message: 'must NOT have additional properties' },
      ],
    }),
  },
  placeOrder: {
    status: 201,
    headers: { 'content-type': JSON_TYPE, location: '/store/orders/7' },
    body: JSON.stringify({ id: 7, petId: 21, quantity: 1, complete: false }),
  },
  cancelOrder: { status: 204, headers: {}, body: '' },
  notFound: {
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify({ code: 'ROUTE_NOT_FOUND', message: 'No operation matches this request.', status: 404 }),
  },
};

/** Headers node:http writes by itself (or that describe the connection, not the answer). */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One answer, precomputed once: status, header object with Content-Length, body bytes. */
export function prepareResponse({ status, headers = {}, body = '' }) {
  const bytes = Buffer.from(body, 'utf8');
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!NOT_REPLAYED.has(name.toLowerCase())) out[name] = value;
  }
  if (status !== 204 && status !== 304) out['content-length'] = String(bytes.length);
  return { status, headers: out, body: bytes };
}

function parseJson(chunks) {
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      responses: { type: 'string' },
    },
  });
  const recorded = values.responses ? JSON.parse(readFileSync(values.responses, 'utf8')) : {};
  if (recorded.routes) return listenUntilSignal(routedServer(recorded.routes), values.host, Number(values.port));
  const R = {};
  for (const key of Object.keys(DEFAULT_RESPONSES)) R[key] = prepareResponse(recorded[key] ?? DEFAULT_RESPONSES[key]);

  const send = (res, r) => {
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  };

  const server = http.createServer((req, res) => {
    const { method, url = '/' } = req;
    if (method === 'GET') {
      if (url.startsWith('/pets/')) return send(res, R.getPet);
      if (url.startsWith('/pets')) return send(res, R.listPets);
      return send(res, R.notFound);
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (method === 'POST' && url === '/pets') {
        const body = parseJson(chunks);
        return send(res, body !== null && typeof body === 'object' && typeof body.name === 'string' ? R.createPet : R.rejectPet);
      }
      if (method === 'POST' && url === '/store/orders') {
        parseJson(chunks);
        return send(res, R.placeOrder);
      }
      if (method === 'DELETE' && url.startsWith('/store/orders/')) return send(res, R.cancelOrder);
      return send(res, R.notFound);
    });
  });

  listenUntilSignal(server, values.host, Number(values.port));
}

/** The answers recorded from the mock for any document, by `METHOD target`. */
function routedServer(routes) {
  const answers = new Map(Object.entries(routes).map(([route, answer]) => [route, prepareResponse(answer)]));
  const notFound = prepareResponse(DEFAULT_RESPONSES.notFound);
  const send = (res, r) => {
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  };
  return http.createServer((req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`) ?? notFound;
    if (req.method === 'GET' || req.method === 'HEAD') return send(res, answer);
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      parseJson(chunks);
      send(res, answer);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
