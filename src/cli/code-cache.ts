/**
 * A V8 code cache for the command line's bundle (issue 33, point 2: the runner's own CPU).
 *
 * Every `petstore-kit` process used to parse the bundle and compile, function by function, the code it ran: about a
 * tenth of a second of a start and a sixth of a full conformance run's CPU (measured in bench/README.md section 7).
 * Node 20 has no compile cache for ES modules (module.enableCompileCache is Node 22), so the build also writes the
 * command line as one CommonJS bundle (dist/cli/bundle.cjs, bin/dev/build.mjs) and dist/cli/main.js runs it through
 * `vm.Script` with the bytecode V8 serialised after an earlier run (`script.createCachedData()`), as the
 * v8-compile-cache package does for CommonJS.
 *
 * The cache is an optimisation and never a reason to fail:
 * - one file per command (a conformance run compiles other functions than a mock), named by the bundle's hash (made
 *   at build time) and a hash of the Node version, architecture and the flags V8 runs with;
 * - the file carries its own checksum and key, checked before V8 is given the bytes (V8 checks its version, flags
 *   and the source's length only): a corrupt, truncated or foreign file is ignored and replaced;
 * - written at exit, atomically (a temporary file renamed), when there was none, V8 refused it, or this process ran
 *   much longer than the one that wrote it (so it compiled more of the bundle); any error while writing is ignored;
 * - kept in node_modules/.cache/petstore-kit (the package's or the checkout's), else the system's temporary folder;
 *   PETSTORE_KIT_CODE_CACHE=off turns it off, PETSTORE_KIT_CODE_CACHE=DIR puts it in DIR.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import vm from 'node:vm';
import { lendImport } from '../import-file.js';

const MAGIC = 'petstore-kit code cache 1\n';
/** A run this many times the CPU of the one that wrote the cache has likely compiled more of the bundle. */
const REWRITE_FACTOR = 1.5;

export type CacheState = 'used' | 'absent' | 'invalid' | 'rejected' | 'off';

export interface CachedScriptOptions {
  /** The CommonJS file to run. */
  file: string;
  /** The file's content hash, worked out at build time (hashing the bundle at every start would cost what it saves). */
  sourceHash: string;
  /** What the cache is for (a command's name): a file per name. */
  name: string;
  /** How the file is read: `latin1` only for a file of ASCII alone (the build makes the bundle so), which it reads faster. */
  encoding?: 'utf8' | 'latin1';
  /** Where the cache may live, in order of preference; by default from PETSTORE_KIT_CODE_CACHE or the file's place. */
  dirs?: readonly string[];
}

export interface CachedScript {
  /** What the CommonJS module exported. */
  exports: unknown;
  /** What became of the cache at load. */
  state: CacheState;
  /** Writes the cache when it is worth it (see above); returns the file written, if any. Never throws. */
  save(options?: { force?: boolean }): string | undefined;
}

/** Compiles and runs `file` as a CommonJS module, with the cached bytecode when there is a valid one. */
export function loadCachedScript(options: CachedScriptOptions): CachedScript {
  const { file, sourceHash } = options;
  const source = readFileSync(file, options.encoding ?? 'utf8');
  const dirs = options.dirs ?? cacheDirs(file);
  const key = cacheKey(sourceHash);
  const fileName = `${safeName(options.name)}-${sourceHash.slice(0, 12)}-${hash(key).slice(0, 12)}.bin`;
  let state: CacheState = dirs.length === 0 ? 'off' : 'absent';
  let cachedData: Buffer | undefined;
  let writtenCpuMs = 0;
  for (const dir of dirs) {
    const read = readCache(join(dir, fileName), key);
    if (read === 'absent') continue;
    if (read === 'invalid') {
      state = 'invalid';
      continue;
    }
    cachedData = read.data;
    writtenCpuMs = read.cpuMs;
    state = 'used';
    break;
  }
  // The same wrapper as Node's own for CommonJS, on the first line, so that line numbers in stack traces hold.
  // import() inside a script made from cached bytecode fails in Node 20 (it loses importModuleDynamically below): the
  // bundle imports a user's file through this module's import() instead (src/import-file.ts).
  lendImport((url) => import(url));
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}), importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (cachedData && script.cachedDataRejected === true) state = 'rejected';
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    state,
    save({ force = false } = {}) {
      if (dirs.length === 0) return undefined;
      const cpuMs = cpuNowMs();
      if (!force && state === 'used' && cpuMs < writtenCpuMs * REWRITE_FACTOR) return undefined;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return undefined;
      }
      for (const dir of dirs) {
        try {
          const written = writeCache(dir, fileName, key, data, cpuMs, `${safeName(options.name)}-`);
          if (written) return written;
        } catch {
          // The next place, if any.
        }
      }
      return undefined;
    },
  };
}

/** Where the cache may live for a bundle at `file`: node_modules/.cache/petstore-kit nearest the package, then the temporary folder. */
export function cacheDirs(file: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const setting = env['PETSTORE_KIT_CODE_CACHE'];
  if (setting === 'off' || setting === '0' || setting === 'false') return [];
  if (setting !== undefined && setting !== '') return [setting];
  const dirs: string[] = [];
  // Installed: …/node_modules/petstore-kit/dist/cli/bundle.cjs -> …/node_modules/.cache/petstore-kit.
  const parts = dirname(file).split(sep);
  const nodeModules = parts.lastIndexOf('node_modules');
  if (nodeModules > 0) dirs.push(join(parts.slice(0, nodeModules + 1).join(sep) || sep, '.cache', 'petstore-kit'));
  // A checkout: <root>/dist/cli/bundle.cjs -> <root>/node_modules/.cache/petstore-kit.
  else dirs.push(join(dirname(dirname(dirname(file))), 'node_modules', '.cache', 'petstore-kit'));
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  dirs.push(join(tmpdir(), `petstore-kit-code-cache-${uid}`));
  return dirs;
}

/** What the cached bytecode depends on besides the source: Node (and so V8) and the flags V8 runs with. */
export function cacheKey(sourceHash: string): string {
  return JSON.stringify([sourceHash, process.version, process.arch, process.versions.v8, v8Flags(process.execArgv), process.env['NODE_OPTIONS'] ?? '']);
}

/** Node's own options that take a value and leave V8's flags alone (a preloaded module, a profile's folder). */
const NODE_ONLY_WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--cpu-prof-dir', '--cpu-prof-name', '--cpu-prof-interval', '--heap-prof-dir', '--env-file']);

function v8Flags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const name = arg.split('=')[0]!;
    if (NODE_ONLY_WITH_VALUE.has(name)) {
      if (!arg.includes('=')) i += 1;
      continue;
    }
    if (name === '--cpu-prof' || name === '--heap-prof' || name.startsWith('--inspect') || name === '--enable-source-maps') continue;
    kept.push(arg);
  }
  return kept;
}

function readCache(path: string, key: string): { data: Buffer; cpuMs: number } | 'absent' | 'invalid' {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return 'absent';
  }
  try {
    if (bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return 'invalid';
    const end = bytes.indexOf(10, MAGIC.length);
    if (end < 0) return 'invalid';
    const header = JSON.parse(bytes.toString('utf8', MAGIC.length, end)) as { key?: unknown; length?: unknown; sha1?: unknown; cpuMs?: unknown };
    const data = bytes.subarray(end + 1);
    if (header.key !== key || header.length !== data.length || typeof header.cpuMs !== 'number') return 'invalid';
    if (header.sha1 !== createHash('sha1').update(data).digest('hex')) return 'invalid';
    return { data, cpuMs: header.cpuMs };
  } catch {
    return 'invalid';
  }
}

function writeCache(dir: string, fileName: string, key: string, data: Buffer, cpuMs: number, prefix: string): string | undefined {
  const path = join(dir, fileName);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const header = Buffer.from(`${MAGIC}${JSON.stringify({ key, length: data.length, sha1: createHash('sha1').update(data).digest('hex'), cpuMs: Math.round(cpuMs) })}\n`);
    writeFileSync(temporary, Buffer.concat([header, data]));
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written there (not a folder, not ours).
    }
    return undefined;
  }
  // A build replaces the bundle: the caches of earlier bundles for this name are of no more use.
  try {
    const hashPart = basename(fileName).slice(prefix.length, prefix.length + 12);
    for (const other of readdirSync(dir)) {
      if (other.startsWith(prefix) && other.endsWith('.bin') && other.slice(prefix.length, prefix.length + 12) !== hashPart) rmSync(join(dir, other), { force: true });
    }
  } catch {
    // Left for another time.
  }
  return path;
}

function safeName(name: string): string {
  return /^[a-z][a-z-]{0,30}$/.test(name) ? name : 'other';
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function cpuNowMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
