import { realpath } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCappedBytes } from './bounded-files.js';
import { CapExceeded, DOCUMENT_CAPS } from './caps.js';

/** What a document may be split into (issue 20): YAML and JSON files, by extension. */
const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** How long a remote part of a document the user allowed (`--allow-refs https://…`) may take to arrive. */
const REMOTE_TIMEOUT_MS = 10_000;

/** A $ref the policy does not follow; the loader turns it into KitError SPEC_INVALID naming the reference. */
export class RefRefused extends Error {
  constructor(
    /** The reference as written in the document, or the URL when that is unknown. */
    readonly reference: string,
    /** Where the $ref sits (the file and pointer json-schema-ref-parser gives), when known. */
    readonly at: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The FileInfo json-schema-ref-parser hands a resolver, reduced to what is read here. */
interface RefFile {
  readonly url: string;
  readonly reference?: string;
  readonly baseUrl?: string;
}

export interface ResolverPlugin {
  readonly order: number;
  canRead(file: RefFile): boolean;
  read(file: RefFile): Promise<Buffer>;
}

/**
 * The places a document's $refs may read, beyond the document itself.
 * By default: the document's folder and the working directory's tree, and in
 * them only `.yaml`, `.yml` and `.json` files that are not hidden and not in a
 * hidden folder. `allow` widens it: a directory (any file under it, by
 * the same extension rule), or an `http(s)://` prefix (remote refs are refused
 * otherwise). Everything else is refused before a byte is read, so nothing of
 * a file the document had no business naming (an ssh key, an `.npmrc`) can
 * reach a request, a report or the terminal.
 */
export interface RefPolicy {
  /** The root document, read whatever its name: the user named it. */
  readonly root: string;
  /** The root's bytes, when the caller read them already: handed over rather than read again (a pipe reads once). */
  readonly rootBytes?: Buffer;
  readonly allow?: readonly string[];
  readonly cwd?: string;
}

/**
 * json-schema-ref-parser resolvers (`options.resolve.file` and `.http`)
 * applying the policy. `refused` is told of each refusal, and `capped` of a
 * file past the size cap (read with the document's cap, bounded-files.ts),
 * since the reference parser wraps whatever a resolver throws in its own error.
 */
export function policyResolvers(policy: RefPolicy, refused: (error: RefRefused) => void, capped: (error: CapExceeded) => void = () => undefined): { file: ResolverPlugin; http: ResolverPlugin } {
  const root = resolve(policy.root);
  const cwd = resolve(policy.cwd ?? process.cwd());
  const allowedDirs = (policy.allow ?? []).filter((entry) => !isRemote(entry)).map((entry) => resolve(cwd, entry));
  const allowedPrefixes = (policy.allow ?? []).filter(isRemote);
  const roots = realRoots([dirname(root), cwd, ...allowedDirs]);

  // `remedy`: what the user can do about it, only when something can (--allow-refs widens the places read, never the
  // kinds of file nor the schemes: suggesting it for a `.php` file sent users round in circles).
  const refuse = (file: RefFile, why: string, remedy?: string): never => {
    const reference = file.reference ?? file.url;
    const at = file.baseUrl;
    const error = new RefRefused(reference, at, `$ref ${JSON.stringify(reference)}${at ? ` (at ${at})` : ''} is not followed: ${why}.${remedy ? ` ${remedy}.` : ''}`);
    refused(error);
    throw error;
  };

  const readPart = async (path: string): Promise<Buffer> => {
    try {
      return await readCappedBytes(path, DOCUMENT_CAPS.maxBytes);
    } catch (error) {
      if (error instanceof CapExceeded) capped(error);
      throw error;
    }
  };

  return {
    file: {
      order: 100,
      canRead: (file) => !isRemote(file.url),
      async read(file) {
        const path = toPath(file.url);
        if (path === undefined) return refuse(file, 'it is neither a file path nor a file: URL', 'Only files and, when allowed, http(s):// URLs are read; --allow-refs does not change that');
        if (path === root) return policy.rootBytes ?? readPart(path);
        if (!DOCUMENT_EXTENSIONS.has(extname(path).toLowerCase())) return refuse(file, 'a document is split only into .yaml, .yml and .json files', 'Whatever --allow-refs allows, no other kind of file is read: write what it names as YAML or JSON, or into the document');
        let real: string;
        try {
          real = await realpath(path);
        } catch {
          // Not there (or unreadable): the reference parser's own "cannot open" error words it, once the policy allows the place.
          real = path;
        }
        // Hidden is judged below the place that allows the file: a document kept in `.github/api/` may use its own folder.
        const containing = (await roots).filter((base) => isInside(real, base));
        if (containing.length === 0) return refuse(file, "it names a file outside the document's folder and the working directory", `Pass --allow-refs ${dirname(real)} (or a folder above it) to allow it`);
        if (!containing.some((base) => !relative(base, real).split(sep).some((segment) => segment.startsWith('.')))) return refuse(file, 'it names a hidden file or a file in a hidden folder', basename(real).startsWith('.') ? 'A hidden file is not read, whatever --allow-refs allows' : `Pass --allow-refs ${dirname(real)} to allow that folder, hidden or not`);
        return readPart(real);
      },
    },
    http: {
      order: 200,
      canRead: (file) => isRemote(file.url),
      async read(file) {
        if (!allowedPrefixes.some((prefix) => file.url.startsWith(prefix))) return refuse(file, 'remote references are not followed unless allowed', `Pass --allow-refs ${remotePrefix(file.url)} (an http(s):// prefix) to allow it`);
        // No redirect: it could lead off the allowed prefix.
        const response = await fetch(file.url, { redirect: 'error', signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`${file.url} answered ${response.status}`);
        // Read up to the size cap, whatever Content-Length says (or does not): the parsers would refuse more anyway.
        const chunks: Buffer[] = [];
        let received = 0;
        const reader = response.body?.getReader();
        for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
          received += next.value.byteLength;
          if (received > DOCUMENT_CAPS.maxBytes) {
            await reader?.cancel();
            throw new Error(`${file.url} is past the size cap of ${DOCUMENT_CAPS.maxBytes} bytes`);
          }
          chunks.push(Buffer.from(next.value));
        }
        return Buffer.concat(chunks);
      },
    },
  };
}

/** The folder of a remote URL (`https://host/specs/`), as an --allow-refs prefix. */
function remotePrefix(url: string): string {
  try {
    return new URL('.', url).href;
  } catch {
    return url;
  }
}

function isRemote(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** A file path from what the reference parser hands over: a plain path, or a file: URL. */
function toPath(url: string): string | undefined {
  if (/^file:/i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  // Another scheme (ftp:, data:): no resolver of ours reads it.
  if (/^[a-z][a-z0-9+.-]+:/i.test(url) && !/^[a-z]:[\\/]/i.test(url)) return undefined;
  let path = url;
  try {
    path = decodeURI(url);
  } catch {
    // Kept as written.
  }
  return isAbsolute(path) ? resolve(path) : undefined;
}

async function realRoots(dirs: readonly string[]): Promise<string[]> {
  return Promise.all(dirs.map((dir) => realpath(dir).catch(() => dir)));
}

function isInside(path: string, base: string): boolean {
  const rel = relative(base, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
