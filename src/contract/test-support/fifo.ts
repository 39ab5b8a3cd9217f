/**
 * Named pipes (FIFOs) for the tests of what the kit reads: a file that cannot seek, whose size reads 0, and that
 * holds what its writer sends, as `--spec <(curl …)` or `--mock-overlay <(cat …)` hand the kit.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

/** Whether FIFOs can be made here (mkfifo(1), on Linux and macOS). */
export const CAN_MAKE_FIFOS = process.platform !== 'win32';

/** A new FIFO named `name` in `dir`. */
export function makeFifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/**
 * Writes `text` into the FIFO once a reader opens it, then `repeat` more copies of `filler` (a producer that goes on),
 * and closes it. Resolves with the bytes written; a reader that closes early ends the writing (EPIPE) quietly.
 */
export function feedFifo(path: string, text: string, filler = '', repeat = 0): Promise<number> {
  return new Promise((resolve) => {
    const stream = createWriteStream(path);
    let written = 0;
    let left = repeat;
    const done = (): void => resolve(written);
    stream.once('error', done);
    stream.once('close', done);
    const pump = (): void => {
      for (;;) {
        if (left <= 0) {
          stream.end();
          return;
        }
        left -= 1;
        written += Buffer.byteLength(filler);
        if (!stream.write(filler)) {
          stream.once('drain', pump);
          return;
        }
      }
    };
    written += Buffer.byteLength(text);
    stream.write(text);
    pump();
  });
}
