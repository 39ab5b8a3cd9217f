/**
 * The one capped reader (bounded-files.ts) and the document's loader on it (review 1, findings 10 and 11): a pipe is
 * read (no seek, so no ESPIPE), a file whose size reads 0 is read to its end, a file that goes on past the cap is
 * refused having held no more than the cap, and a document past the cap is refused by its size before it is read.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KitError } from '../kit-error.js';
import { readCappedBytes, readCappedText } from './bounded-files.js';
import { CapExceeded, DOCUMENT_CAPS } from './caps.js';
import { loadDocument } from './load.js';
import { CAN_MAKE_FIFOS, feedFifo, makeFifo } from './test-support/fifo.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-bounded-files-'));
// The sparse 1.5 GB files hold no blocks, but a copy of the folder would write them out: gone after the run.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DOCUMENT = ['openapi: 3.0.3', 'info: { title: piped, version: "1" }', 'paths:', '  /things:', '    get:', '      responses:', "        '200':", '          description: ok', '          content:', '            application/json:', '              schema: { $ref: "./part.yaml" }', ''].join('\n');

async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe.runIf(CAN_MAKE_FIFOS)('readCappedBytes on a pipe', () => {
  it('reads a FIFO to its end, more than a pipe holds at once (200 KB)', async () => {
    const fifo = makeFifo(dir, 'whole.txt');
    const text = 'x'.repeat(1000);
    const [read, written] = await Promise.all([readCappedText(fifo, 1024 * 1024), feedFifo(fifo, 'head:', text, 200)]);
    expect(written).toBe(200_005);
    expect(read).toBe(`head:${text.repeat(200)}`);
  });

  it('refuses a FIFO that goes on past the cap, once it has read one byte past it', async () => {
    const fifo = makeFifo(dir, 'endless.txt');
    const cap = 256 * 1024;
    const [error, written] = await Promise.all([refusal(readCappedBytes(fifo, cap)), feedFifo(fifo, '', 'y'.repeat(64 * 1024), 1000)]);
    expect(error).toBeInstanceOf(CapExceeded);
    expect(error.message).toBe(`${fifo} holds more than the size cap of ${cap} bytes`);
    // The reader stopped: the writer met a closed pipe long before its 64 MB were through.
    expect(written).toBeLessThan(64 * 1024 * 1000);
  });
});

describe('readCappedBytes on files', () => {
  it.runIf(process.platform === 'linux')('reads a file whose size reads 0 (procfs) to its end, not one byte of it', async () => {
    const text = await readCappedText('/proc/self/status', 1024 * 1024);
    expect(text).toMatch(/^Name:/);
    expect(text).toMatch(/\nVmHWM:/);
  });

  it('refuses a regular file past the cap by its size, before reading it', async () => {
    const file = join(dir, 'sparse.bin');
    writeFileSync(file, '');
    truncateSync(file, 1_500 * 1024 * 1024);
    const error = await refusal(readCappedBytes(file, DOCUMENT_CAPS.maxBytes));
    expect(error.message).toBe(`${file} is 1572864000 bytes, past the size cap of ${DOCUMENT_CAPS.maxBytes} bytes`);
  });

  it('reads a regular file exactly at the cap, and one byte more is refused', async () => {
    const file = join(dir, 'exact.txt');
    writeFileSync(file, 'z'.repeat(1000));
    expect((await readCappedBytes(file, 1000)).length).toBe(1000);
    expect((await refusal(readCappedBytes(file, 999))).message).toContain('is 1000 bytes, past the size cap of 999 bytes');
  });
});

describe('the document and its $refs are read by the capped reader', () => {
  it('a document past the size cap (1.5 GB, sparse) is refused by its size: SPEC_INVALID, without holding it', async () => {
    const file = join(dir, 'huge.yaml');
    writeFileSync(file, '');
    truncateSync(file, 1_500 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const error = await refusal(loadDocument(file));
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('SPEC_INVALID');
    expect(error.message).toBe(`${file} is 1572864000 bytes, past the size cap of ${DOCUMENT_CAPS.maxBytes} bytes a file of a document may have. The document is refused.`);
    // Read whole, the file took 1.5 GB (review 1: maxrss 3 GB).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it.runIf(CAN_MAKE_FIFOS)('a document read from a pipe loads, read once (its $refs read beside it)', async () => {
    const folder = mkdtempSync(join(dir, 'piped-'));
    writeFileSync(join(folder, 'part.yaml'), 'type: object\nproperties: { id: { type: integer } }\n');
    const fifo = makeFifo(folder, 'api.yaml');
    const [loaded] = await Promise.all([loadDocument(fifo), feedFifo(fifo, DOCUMENT)]);
    expect(loaded.document.info.title).toBe('piped');
    const schema = loaded.document.paths['/things']?.get?.responses['200'];
    expect(JSON.stringify(schema)).toContain('"id":{"type":"integer"}');
  });

  it.runIf(CAN_MAKE_FIFOS)("a $ref'd file that goes on past the cap is refused while it is read, as the document would be", async () => {
    const folder = mkdtempSync(join(dir, 'endless-part-'));
    const file = join(folder, 'api.yaml');
    writeFileSync(file, DOCUMENT);
    const part = makeFifo(folder, 'part.yaml');
    // 80 MB offered: the reader stops one byte past the 64 MiB cap and closes the pipe.
    const [error] = await Promise.all([refusal(loadDocument(file)), feedFifo(part, 'description: "', 'w'.repeat(1024 * 1024), 80)]);
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('SPEC_INVALID');
    expect(error.message).toContain(`${part} holds more than the size cap of ${DOCUMENT_CAPS.maxBytes} bytes a file of a document may have`);
  }, 30_000);
});
