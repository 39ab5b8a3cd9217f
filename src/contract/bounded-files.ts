/**
 * Every file the kit reads has a size cap (issue 31, point 4), the document itself included (issue 20): the
 * document and the files its $refs name (load.ts, ref-policy.ts), `--mock-overlay`, `--fixtures` files, the
 * reports `merge-reports` joins. One reader for all of them: a regular file whose size is past the cap is refused
 * before a byte is read (a 1.5 GB document costs a stat, not 3 GB of memory), and every file is then read in
 * chunks from where it stands, to its end or one byte past the cap, so what is held never passes the cap by more
 * than a chunk, whatever the file does while it is read.
 */
import { open } from 'node:fs/promises';
import { assertDepth, CapExceeded, DOCUMENT_CAPS } from './caps.js';

export const FILE_CAPS = Object.freeze({
  /** `--mock-overlay`: corrections keyed by path and operationId; a large one is a few KB. */
  overlayBytes: 1024 * 1024,
  /** One `--fixtures` file: records, as large as a document may be. */
  fixturesBytes: DOCUMENT_CAPS.maxBytes,
});

/** Bytes asked of the file per read once past what its size said (a pipe hands over at most 64 KiB at a time anyway). */
const CHUNK_BYTES = 64 * 1024;

/**
 * The file's bytes, or CapExceeded('size') when it holds more than `maxBytes`.
 *
 * Each read is at the file's current position (`position: null`), never at an offset: a pipe or a FIFO
 * (`--mock-overlay <(cat overlay.yaml)`) cannot seek, and a read at an offset fails there with ESPIPE. The size
 * `stat` gives is a hint only: past the cap it refuses at once, but a file whose size reads 0 (procfs, a
 * character device, a pipe) or that grows while it is read is read on to its end, or to one byte past the cap.
 */
export async function readCappedBytes(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new CapExceeded('size', file, `${file} is ${size} bytes, past the size cap of ${maxBytes} bytes`);
    const chunks: Buffer[] = [];
    let length = 0;
    // The first read asks for the whole file as its size says (and one byte more, to see its end at once).
    let want = size > 0 ? size + 1 : CHUNK_BYTES;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > maxBytes) throw new CapExceeded('size', file, `${file} holds more than the size cap of ${maxBytes} bytes`);
      want = CHUNK_BYTES;
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  } finally {
    await handle.close();
  }
}

/** The file's text (UTF-8), capped as readCappedBytes says. */
export async function readCappedText(file: string, maxBytes: number): Promise<string> {
  return (await readCappedBytes(file, maxBytes)).toString('utf8');
}

/** A JSON file with the document's depth cap: its text parsed, then walked once without recursion. */
export async function readCappedJson(file: string, maxBytes: number): Promise<unknown> {
  const text = await readCappedText(file, maxBytes);
  // A byte order mark is allowed before the JSON, as for the document.
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  assertDepth(file, value);
  return value;
}
