/**
 * Every file the kit reads has a size cap (issue 31, point 4), like the document itself (issue 20): its size is
 * checked before it is read, so a 50 MB overlay is refused at once instead of parsed into 1.5 GB. The caps are far
 * above what each kind of file needs.
 */
import { open } from 'node:fs/promises';
import { assertDepth, CapExceeded, DOCUMENT_CAPS } from './caps.js';

export const FILE_CAPS = Object.freeze({
  /** `--mock-overlay`: corrections keyed by path and operationId; a large one is a few KB. */
  overlayBytes: 1024 * 1024,
  /** One `--fixtures` file: records, as large as a document may be. */
  fixturesBytes: DOCUMENT_CAPS.maxBytes,
});

/** The file's text, or CapExceeded('size') when it holds more than `maxBytes` (checked before reading, and while reading). */
export async function readCappedText(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new CapExceeded('size', file, `${file} is ${size} bytes, past the size cap of ${maxBytes} bytes`);
    // Read at most one byte past the cap: a file that grows while read (a pipe, a log) is still bounded.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new CapExceeded('size', file, `${file} holds more than the size cap of ${maxBytes} bytes`);
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A JSON file with the document's depth cap: its text parsed, then walked once without recursion. */
export async function readCappedJson(file: string, maxBytes: number): Promise<unknown> {
  const text = await readCappedText(file, maxBytes);
  // A byte order mark is allowed before the JSON, as for the document.
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  assertDepth(file, value);
  return value;
}
