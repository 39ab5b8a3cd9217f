import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildIfStale, killChildren, startChildMock } from '../../mock/test-support/child-mock.js';
import { libraryDocument } from '../../mock/test-support/library.js';
import { cacheDirs, loadCachedScript } from './code-cache.js';

const made: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A CommonJS file with enough functions that V8's cache of it is more than a header. */
function script(dir: string, name = 'bundle.cjs', salt = ''): string {
  const file = join(dir, name);
  const functions = Array.from({ length: 40 }, (_, i) => `function f${i}(x) { return x * ${i + 1} + ${JSON.stringify(salt)}.length; }`).join('\n');
  writeFileSync(file, `${functions}\nexports.total = (n) => { let t = 0; for (let i = 0; i < 40; i++) t += eval('f' + i)(n); return t; };\nexports.file = __filename;\n`);
  return file;
}

function binsIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.bin')) : [];
}

describe('the V8 code cache of the command line (src/cli/code-cache.ts)', () => {
  it('runs the file as CommonJS, writes the cache once and uses it the next time', () => {
    const dir = folder();
    const cache = join(dir, 'cache');
    const file = script(dir);
    const first = loadCachedScript({ file, sourceHash: 'a'.repeat(64), name: 'conformance', dirs: [cache] });
    expect(first.state).toBe('absent');
    expect((first.exports as { total: (n: number) => number }).total(1)).toBe(820);
    expect((first.exports as { file: string }).file).toBe(file);
    const written = first.save();
    expect(written).toBeDefined();
    expect(binsIn(cache)).toHaveLength(1);
    const second = loadCachedScript({ file, sourceHash: 'a'.repeat(64), name: 'conformance', dirs: [cache] });
    expect(second.state).toBe('used');
    expect((second.exports as { total: (n: number) => number }).total(2)).toBe(1640);
    // A run no longer than the one that wrote it leaves the cache as it is.
    expect(second.save()).toBeUndefined();
  });

  it('ignores a corrupt or truncated cache, runs all the same and replaces it', () => {
    const dir = folder();
    const cache = join(dir, 'cache');
    const file = script(dir);
    const path = loadCachedScript({ file, sourceHash: 'b'.repeat(64), name: 'mock', dirs: [cache] }).save()!;
    const bytes = readFileSync(path);
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length - 10] = corrupt[corrupt.length - 10]! ^ 0xff;
    for (const broken of [corrupt, bytes.subarray(0, bytes.length - 100), Buffer.from('not a cache'), Buffer.alloc(0)]) {
      writeFileSync(path, broken);
      const loaded = loadCachedScript({ file, sourceHash: 'b'.repeat(64), name: 'mock', dirs: [cache] });
      expect(loaded.state).toBe('invalid');
      expect((loaded.exports as { total: (n: number) => number }).total(1)).toBe(820);
      expect(loaded.save()).toBe(path);
      expect(loadCachedScript({ file, sourceHash: 'b'.repeat(64), name: 'mock', dirs: [cache] }).state).toBe('used');
    }
  });

  it('lets V8 refuse a cache of another source under the same key, and runs the source given', () => {
    const dir = folder();
    const cache = join(dir, 'cache');
    const file = script(dir);
    const path = loadCachedScript({ file, sourceHash: 'c'.repeat(64), name: 'proxy', dirs: [cache] }).save()!;
    // The bundle changed but its recorded hash did not (a hand-edited dist/): V8's own check refuses the bytecode.
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexports.extra = 42;\n`);
    const loaded = loadCachedScript({ file, sourceHash: 'c'.repeat(64), name: 'proxy', dirs: [cache] });
    expect(loaded.state).toBe('rejected');
    expect((loaded.exports as { extra: number }).extra).toBe(42);
    expect(loaded.save()).toBe(path);
  });

  it('keys the cache by the bundle: a stale one is not read, and is removed once the new one is written', () => {
    const dir = folder();
    const cache = join(dir, 'cache');
    const file = script(dir);
    loadCachedScript({ file, sourceHash: 'd'.repeat(64), name: 'conformance', dirs: [cache] }).save();
    loadCachedScript({ file, sourceHash: 'd'.repeat(64), name: 'mock', dirs: [cache] }).save();
    const next = loadCachedScript({ file, sourceHash: 'e'.repeat(64), name: 'conformance', dirs: [cache] });
    expect(next.state).toBe('absent');
    next.save();
    const names = binsIn(cache);
    expect(names.filter((name) => name.startsWith('conformance-'))).toEqual([expect.stringContaining('-eeeeeeeeeeee-')]);
    // Another command's cache stays.
    expect(names.filter((name) => name.startsWith('mock-'))).toHaveLength(1);
  });

  it('never fails a run where it cannot write: the next place is tried, and none at all is fine', () => {
    const dir = folder();
    const file = script(dir);
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, '');
    const fallback = join(dir, 'fallback');
    const loaded = loadCachedScript({ file, sourceHash: 'f'.repeat(64), name: 'conformance', dirs: [join(notAFolder, 'cache'), fallback] });
    expect(loaded.save()).toContain(fallback);
    const nowhere = loadCachedScript({ file, sourceHash: 'f'.repeat(64), name: 'conformance', dirs: [join(notAFolder, 'cache')] });
    expect(nowhere.state).toBe('absent');
    expect(nowhere.save()).toBeUndefined();
    const off = loadCachedScript({ file, sourceHash: 'f'.repeat(64), name: 'conformance', dirs: [] });
    expect(off.state).toBe('off');
    expect(off.save()).toBeUndefined();
  });

  it('lives in node_modules/.cache/petstore-kit, then the temporary folder; PETSTORE_KIT_CODE_CACHE turns it off or moves it', () => {
    expect(cacheDirs('/srv/app/node_modules/petstore-kit/dist/cli/bundle.cjs', {})[0]).toBe('/srv/app/node_modules/.cache/petstore-kit');
    expect(cacheDirs('/home/me/petstore-kit/dist/cli/bundle.cjs', {})[0]).toBe('/home/me/petstore-kit/node_modules/.cache/petstore-kit');
    expect(cacheDirs('/home/me/petstore-kit/dist/cli/bundle.cjs', {})[1]).toContain(tmpdir());
    expect(cacheDirs('/x/dist/cli/bundle.cjs', { PETSTORE_KIT_CODE_CACHE: 'off' })).toEqual([]);
    expect(cacheDirs('/x/dist/cli/bundle.cjs', { PETSTORE_KIT_CODE_CACHE: '/elsewhere' })).toEqual(['/elsewhere']);
  });

  describe('through the command line', () => {
    beforeAll(() => buildIfStale(), 300_000);
    afterAll(() => killChildren());

    // Regression: a script made from cached bytecode lost its import(), so `mock --behaviour FILE` loaded the module on
    // the first run only, and every later run exited with "A dynamic import callback was not specified".
    it('loads a behaviour module on the run that writes the cache and on the runs that use it', async () => {
      const dir = folder();
      const spec = join(dir, 'library.json');
      writeFileSync(spec, JSON.stringify(libraryDocument()));
      const behaviour = join(dir, 'rules.mjs');
      writeFileSync(behaviour, 'export default { before() {} };\n');
      const cache = join(dir, 'cache');
      for (const run of ['writes the cache', 'uses it']) {
        const mock = await startChildMock(['--port', '0', '--quiet', '--spec', spec, '--behaviour', behaviour], { ...process.env, PETSTORE_KIT_CODE_CACHE: cache });
        // An answer first: the signal handlers are in place once the mock has served (a SIGTERM before them kills it).
        expect((await fetch(`${mock.url}/__mock/health`)).status, run).toBe(200);
        process.kill(mock.child.pid!, 'SIGTERM');
        expect(await mock.exit, run).toBe(0);
        expect(binsIn(cache), run).toHaveLength(1);
      }
    }, 120_000);

    it('reads a bundle of ASCII alone, so Latin-1 is its exact text', () => {
      expect(isAscii(readFileSync(join(dirname(BIN), '..', 'dist', 'cli', 'bundle.cjs')))).toBe(true);
    });

    it('runs with a corrupt cache and with a cache folder it cannot write', () => {
      const dir = folder();
      const run = (cache: string) => spawnSync(process.execPath, [BIN, 'merge-reports', '--help'], { encoding: 'utf8', env: { ...process.env, PETSTORE_KIT_CODE_CACHE: cache }, timeout: 60_000 });
      const cache = join(dir, 'cache');
      const clean = run(cache);
      expect(clean.status).toBe(0);
      const [written] = binsIn(cache);
      expect(written).toMatch(/^merge-reports-/);
      writeFileSync(join(cache, written!), Buffer.alloc(4096, 7));
      const corrupt = run(cache);
      expect(corrupt.status).toBe(0);
      expect(corrupt.stdout).toBe(clean.stdout);
      expect(corrupt.stderr).toBe('');
      const notAFolder = join(dir, 'a-file');
      writeFileSync(notAFolder, '');
      const unwritable = run(join(notAFolder, 'cache'));
      expect(unwritable.status).toBe(0);
      expect(unwritable.stdout).toBe(clean.stdout);
      expect(unwritable.stderr).toBe('');
      if (process.getuid?.() !== 0) {
        const readOnly = join(dir, 'read-only');
        run(readOnly);
        chmodSync(readOnly, 0o500);
        expect(run(readOnly).status).toBe(0);
        chmodSync(readOnly, 0o700);
      }
    });
  });
});
