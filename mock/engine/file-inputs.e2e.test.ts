/**
 * The files the mock reads, as a user hands them on the command line (review 1, findings 10 and 14): a document or
 * an overlay from a pipe (`--spec <(curl …)`, `--mock-overlay <(cat …)`) is read once, capped as it is read, and a
 * fixtures file named `__proto__.json` is a file name like any other. The mock is a real child process; every answer
 * it gives is checked against its document by the client (foreign-client.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { CAN_MAKE_FIFOS, feedFifo, makeFifo } from '../../src/contract/test-support/fifo.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { sharedCompiledContract } from '../../src/schema/index.js';
import { buildIfStale, killChildren, runChildMock, startChildMock } from '../test-support/child-mock.js';
import { createForeignClient } from './test-support/foreign-client.js';

const ALL_CLASSES = join(PACKAGE_ROOT, 'fixtures', 'documents', 'hostile', 'all-classes.yaml');
const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-file-inputs-'));

beforeAll(() => buildIfStale(), 120_000);
afterAll(() => killChildren());

describe.runIf(CAN_MAKE_FIFOS)('files from a pipe', () => {
  it('--mock-overlay from a pipe is read and taken (it failed with ESPIPE)', async () => {
    const overlay = makeFifo(dir, 'overlay.yaml');
    const [mock] = await Promise.all([startChildMock(['--spec', ALL_CLASSES, '--port', '0', '--mock-overlay', overlay]), feedFifo(overlay, 'paths:\n  /notes/{id}: { x-mock-id: id }\n')]);
    expect(mock.stderr()).toContain('/notes/{id}: list create read; id field id (integer, from x-mock-id)');
    mock.child.kill('SIGTERM');
    await mock.exit;
  }, 90_000);

  it('--spec from a pipe: the mock starts and answers as its document says (no docs page: the pipe was read once)', async () => {
    const spec = makeFifo(dir, 'piped.yaml');
    const [mock] = await Promise.all([startChildMock(['--spec', spec, '--port', '0']), feedFifo(spec, readFileSync(ALL_CLASSES, 'utf8'))]);
    const client = createForeignClient(mock.url, sharedCompiledContract(await loadContract(ALL_CLASSES)));
    try {
      const created = await client.send('POST', '/notes', { json: { text: 'through a pipe' } });
      expect(created.status).toBe(201);
      const read = await client.send('GET', '/notes');
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).toContain('through a pipe');
      expect((await fetch(`${mock.url}/openapi.yaml`)).status).toBe(404);
    } finally {
      await client.close();
      mock.child.kill('SIGTERM');
      await mock.exit;
    }
  }, 90_000);
});

describe('a fixtures file named __proto__.json', () => {
  it('is a file that names no collection (FIXTURES_INVALID), never the prototype of the files read', async () => {
    const fixtures = mkdtempSync(join(dir, 'fixtures-'));
    writeFileSync(join(fixtures, '__proto__.json'), JSON.stringify({ notes: [{ id: 9, text: 'from the prototype' }] }));
    const run = await runChildMock(['--spec', ALL_CLASSES, '--port', '0', '--fixtures', fixtures]);
    expect(run.code).toBe(2);
    // Named by its path, as the Pet Store's own store names a fixtures file.
    expect(run.stderr).toContain(`FIXTURES_INVALID: ${join(fixtures, '__proto__.json')} names no collection of this document`);
  }, 60_000);
});
