#!/usr/bin/env node
// The mock's transport-free core, timed in process: `app.handle(request)` and
// the encoding of its answer (mock/json.ts, as the server does it), per bench scenario, without sockets, the
// HTTP parser or the load generator. What it prints is the floor of what the
// mock's design adds to each request beyond node:http (the baseline pays only
// node:http), and it is steady even on a busy machine: each figure is the
// fastest of several batches, so a batch that was preempted does not count.
//
//   node bench/core.mjs [--batches 9] [--iterations 5000] [--only createPet,listPets]
//
// Run `npm run build` first (it imports dist/mock/server.js). For a function-by-
// function breakdown of one scenario, run it under the profiler and read the
// profile with bench/profile.mjs's analyse():
//   node --cpu-prof --cpu-prof-dir /tmp/core bench/core.mjs --only createPet --batches 40
import { parseArgs } from 'node:util';
import { fmt, formatTable, median } from './lib/stats.mjs';

const { values } = parseArgs({ options: { batches: { type: 'string', default: '9' }, iterations: { type: 'string', default: '5000' }, only: { type: 'string' } } });
const only = values.only?.split(',');
const batches = Number(values.batches);
const iterations = Number(values.iterations);

const { startMock } = await import(new URL('../dist/mock/server.js', import.meta.url).href);
const { encodeJson } = await import(new URL('../dist/mock/json.js', import.meta.url).href);
const running = await startMock({ port: 0, quiet: true });
const app = running.app;

const headers = { host: '127.0.0.1:4010', connection: 'keep-alive' };
const jsonHeaders = (length) => ({ ...headers, 'content-type': 'application/json', 'content-length': String(length) });
const bytes = (value) => new TextEncoder().encode(JSON.stringify(value));
/** A POST as the adapter hands it over: the body bytes and headers come from the socket, so they are built once here. */
const post = (path, value) => {
  const body = bytes(value);
  const h = jsonHeaders(body.length);
  return () => ({ method: 'POST', path, query: {}, headers: h, body: { kind: 'bytes', bytes: body } });
};
const handle = (request) => app.handle(request);
/** As the server encodes: the text of records kept only when answering a read. */
const send = (response, method) => (response.body === undefined ? 0 : Buffer.byteLength(encodeJson(response.body, method === 'GET')));

// Make the list page a full one, as the bench does.
for (let i = 0; i < 20; i++) handle(post('/pets', { name: `Core list pet ${i}`, categoryId: 1, status: 'available' })());
const orderPet = handle(post('/pets', { name: 'Core order pet', categoryId: 1, status: 'available' })()).body.id;
const placeOrder = post('/store/orders', { petId: orderPet, quantity: 1 });

const cases = [
  { id: 'getPet', request: () => ({ method: 'GET', path: '/pets/1', query: {}, headers }), expect: [200] },
  { id: 'listPets', request: () => ({ method: 'GET', path: '/pets', query: { status: 'available', limit: '20' }, headers }), expect: [200] },
  { id: 'createPet', request: post('/pets', { name: 'Bench pet', categoryId: 1, status: 'available' }), expect: [201] },
  {
    id: 'orderCycle',
    // One iteration = the two requests of the cycle; the figure is per request.
    perIteration: 2,
    run() {
      const placed = handle(placeOrder());
      send(placed, 'POST');
      const cancelled = handle({ method: 'DELETE', path: `/store/orders/${placed.body.id}`, query: {}, headers });
      send(cancelled, 'DELETE');
      return placed.status === 201 && cancelled.status === 204;
    },
  },
  { id: 'rejectPet', request: post('/pets', { categoryId: 0, status: 'lost', colour: 'brown' }), expect: [400] },
];

function time(fn) {
  const perBatch = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    perBatch.push(Number(process.hrtime.bigint() - t0) / 1000 / iterations);
  }
  return { min: Math.min(...perBatch), median: median(perBatch) };
}

const rows = [];
for (const c of cases.filter((x) => !only || only.includes(x.id))) {
  const per = c.perIteration ?? 1;
  let handleOnly;
  let full;
  if (c.run) {
    if (!c.run()) throw new Error(`${c.id}: unexpected statuses`);
    for (let i = 0; i < 20_000; i++) c.run();
    full = time(() => c.run());
  } else {
    const request = c.request();
    const first = handle(request);
    if (!c.expect.includes(first.status)) throw new Error(`${c.id}: got ${first.status} ${JSON.stringify(first.body)}`);
    // A fresh request object each time, as the adapter builds one per request.
    for (let i = 0; i < 20_000; i++) send(handle(c.request()), request.method);
    handleOnly = time(() => handle(c.request()));
    full = time(() => send(handle(c.request()), request.method));
  }
  rows.push([
    c.id,
    handleOnly ? fmt(handleOnly.min / per, 2) : '-',
    fmt(full.min / per, 2),
    fmt(full.median / per, 2),
  ]);
}
console.log(`The mock's core in process (Node ${process.version}): µs per request, fastest of ${batches} batches of ${fmt(iterations)}`);
console.log(formatTable(['scenario', 'handle()', 'handle() + encode', '(median batch)'], rows, ['handle()', 'handle() + encode', '(median batch)']));
await running.close();
