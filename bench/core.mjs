#!/usr/bin/env node
// The mock's transport-free core, timed in process: `app.handle(request)` and
// the encoding of its answer (mock/engine/json.ts, as the server does it), per bench scenario, without sockets, the
// HTTP parser or the load generator. What it prints is the floor of what the
// mock's design adds to each request beyond node:http (the baseline pays only
// node:http), and it is steady even on a busy machine: each figure is the
// fastest of several batches, so a batch that was preempted does not count.
//
//   node bench/core.mjs [--batches 9] [--iterations 5000] [--only createPet,listPets,foreignItem] [--dist DIR]
//
// Each figure is given twice: wall time (hrtime) and CPU time (process.cpuUsage, user + system), both the
// fastest batch; on a shared machine the CPU figure is the steadier one (a preempted batch loses wall time,
// not CPU). foreignList and foreignItem are the generic engine on Twilio Messaging (the bench's
// scenarios of the same names). `--dist` times another build (the code of an earlier commit, say) with
// this same script. Run `npm run build` first (it imports dist/mock/transport/server.js). For a function-by-
// function breakdown of one scenario, run it under the profiler and read the
// profile with bench/profile.mjs's analyse():
//   node --cpu-prof --cpu-prof-dir /tmp/core bench/core.mjs --only createPet --batches 40
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importFirst, JSON_MODULES, SERVER_MODULES } from './lib/dist-import.mjs';
import { FOREIGN_SPEC } from './lib/scenarios.mjs';
import { fmt, formatTable, median } from './lib/stats.mjs';

const { values } = parseArgs({ options: { batches: { type: 'string', default: '9' }, iterations: { type: 'string', default: '5000' }, only: { type: 'string' }, dist: { type: 'string' } } });
const only = values.only?.split(',');
const batches = Number(values.batches);
const iterations = Number(values.iterations);

const dist = values.dist ? pathToFileURL(`${path.resolve(values.dist)}/`) : new URL('../dist/', import.meta.url);
const { startMock } = await importFirst(dist, SERVER_MODULES);
const { encodeJson } = await importFirst(dist, JSON_MODULES);
const running = await startMock({ port: 0, quiet: true });
const app = running.app;
const wantsForeign = !only || only.some((id) => id.startsWith('foreign'));
const foreign = wantsForeign ? await startMock({ port: 0, quiet: true, log: () => {}, specPath: fileURLToPath(new URL(`../${FOREIGN_SPEC}`, import.meta.url)) }) : undefined;

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
if (foreign) {
  const list = () => ({ method: 'GET', path: '/v1/Services', query: {}, headers });
  const first = foreign.app.handle(list()).body?.services?.[0]?.sid;
  if (typeof first !== 'string') throw new Error(`foreign: GET /v1/Services answered no service with a sid`);
  cases.push(
    { id: 'foreignList', app: foreign.app, request: list, expect: [200] },
    { id: 'foreignItem', app: foreign.app, request: () => ({ method: 'GET', path: `/v1/Services/${first}`, query: {}, headers }), expect: [200] },
  );
}

function time(fn) {
  const perBatch = [];
  const cpuPerBatch = [];
  for (let b = 0; b < batches; b++) {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    perBatch.push(Number(process.hrtime.bigint() - t0) / 1000 / iterations);
    const cpu = process.cpuUsage(cpu0);
    cpuPerBatch.push((cpu.user + cpu.system) / iterations);
  }
  return { min: Math.min(...perBatch), median: median(perBatch), cpu: Math.min(...cpuPerBatch) };
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
    const handle = (request) => (c.app ?? app).handle(request);
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
    fmt(full.cpu / per, 2),
  ]);
}
console.log(`The mock's core in process (Node ${process.version}): µs per request, fastest of ${batches} batches of ${fmt(iterations)}`);
console.log(formatTable(['scenario', 'handle()', 'handle() + encode', '(median batch)', 'CPU µs, handle() + encode'], rows, ['handle()', 'handle() + encode', '(median batch)', 'CPU µs, handle() + encode']));
await running.close();
await foreign?.close();
