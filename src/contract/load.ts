import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { boundedParsers } from './bounded-parsers.js';
import { findSelfContainingValue } from './data-cycles.js';
import { keepDocument, keptDocument, loadKey } from './load-cache.js';
import { prepareOas31References } from './oas31-refs.js';
import { policyResolvers } from './ref-policy.js';

/**
 * swagger-parser's own check of a document against the OpenAPI 3.0 or 3.1
 * JSON Schema, without the dereferencing its `validate()` does first (for OpenAPI
 * 3.x, `validate()` is exactly: dereference, then this). Not in the package's
 * typings, hence the require.
 */
const validateAgainstOpenApiSchema = createRequire(import.meta.url)('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void;

export interface LoadOptions {
  /**
   * Thorough (default for our own openapi.yaml): swagger-parser's `validate()`
   * as it is. Otherwise the bundled document (every $ref resolved, none
   * expanded) is checked against the same schema first, and `validate()` runs
   * only when that fails, so its verdict is the one given. A dereferenced
   * document is a graph whose shared schemas a validator walks once per path
   * to them: on a 355-operation document whose schemas each refer to the next
   * twice, that walk took minutes; the bundled one takes a moment.
   */
  readonly thorough?: boolean;
  /**
   * Where $refs may read besides the document's folder and the working
   * directory's tree (`--allow-refs`): directories, and `http(s)://` prefixes
   * for remote references (refused otherwise). See ref-policy.ts.
   */
  readonly allowRefs?: readonly string[];
}

export interface LoadedDocument {
  /** Absolute path of the file read. */
  readonly file: string;
  /** SHA-256 of the file's bytes, hex: what a report cites so a vendor can prove which contract it ran. */
  readonly sha256: string;
  /** The document with every $ref resolved (shared objects stay shared). */
  readonly document: OpenAPIV3.Document;
  /** `3.0` (the default) or `3.1`: which dialect the document's schemas are written in (OpenAPI 3.0's, or JSON Schema 2020-12). */
  readonly oasVersion?: OasVersion;
}

export type OasVersion = '3.0' | '3.1';

/**
 * Reads, validates and dereferences an OpenAPI 3.0.x or 3.1.x document, once.
 * Every failure becomes a KitError naming the file, a JSON pointer where
 * one is known, and the reason. Reading has a bounded cost and reads only
 * what the document is legitimately split into (issue 20): past a cap on
 * size, depth or YAML alias expansion, or at a $ref outside what ref-policy.ts
 * allows, it stops with SPEC_INVALID naming the cap or the reference.
 */
export async function loadDocument(path: string, options: LoadOptions = {}): Promise<LoadedDocument> {
  const file = resolve(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((error as Error).message);
    throw new KitError('SPEC_NOT_FOUND', `Cannot read the OpenAPI document ${file}: ${reason}. Pass an existing file with --spec.`, { file, reason });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const thorough = options.thorough ?? file === DEFAULT_SPEC_PATH;
  const key = loadKey(file, thorough, options.allowRefs ?? []);
  const kept = keptDocument(key, sha256);
  if (kept) return kept;
  const reader = documentReader(file, options.allowRefs ?? []);

  // One reference parser for the whole load: the root file is read and parsed once, validated as parsed, then
  // dereferenced in place, where three passes used to read, parse and copy it again (issue 22, point 8).
  const parser = new SwaggerParser();
  let parsed: unknown;
  try {
    parsed = await parser.parse(file, reader.options);
  } catch (error) {
    reader.rethrowRefusal();
    const reason = firstLine((error as Error).message);
    // swagger-parser refuses a well-formed file with neither `openapi` nor `swagger` this way, and an unsupported version (3.2) by name.
    if (/is not a valid \w+ API definition|Unsupported OpenAPI version/i.test(reason)) assertSupportedVersion(reader.rootValue ?? {}, file);
    throw new KitError('SPEC_UNPARSABLE', `${file} is not a readable YAML or JSON document: ${reason}`, { file, reason });
  }

  const oasVersion = assertSupportedVersion(parsed, file);
  // The parsed root is handed back (not read again) and, with `mutateInputSchema`, dereferenced in place rather than as a copy.
  const inPlace = { ...reader.options, mutateInputSchema: true } as SwaggerParser.Options;

  await validateDocument(file, parsed, thorough, reader, oasVersion, () => isOneFile(parser, file, parsed, inPlace));
  let document: OpenAPIV3.Document;
  try {
    document = (await parser.dereference(file, parsed as OpenAPIV3.Document, inPlace)) as OpenAPIV3.Document;
  } catch (error) {
    reader.rethrowRefusal();
    throw invalid(file, error as Error, oasVersion);
  }
  // A value that contains itself (a YAML alias inside its own anchor) would break every copy of it (issue 31, point 3).
  const loop = findSelfContainingValue(document);
  if (loop) {
    const reason = `the value contains itself at ${loop.at} (a YAML alias inside its own anchor, or a $ref to itself); an example, default, const or enum must be finite`;
    throw new KitError('SPEC_INVALID', `${file} at ${loop.value}: ${reason}. Write the value out without the alias.`, { file, pointer: loop.value.slice(1), reason });
  }
  // After the dereference, the reference parser's $refs name every file the document was read from.
  return keepDocument(key, { file, sha256, document, oasVersion }, bytes.length, parser.$refs.paths().length === 1);
}

/**
 * Whether the document is one file: its $refs, resolved, name no other. Any failure to resolve says no, and
 * leaves the checks that follow to word it.
 */
async function isOneFile(parser: SwaggerParser, file: string, parsed: unknown, options: SwaggerParser.Options): Promise<boolean> {
  try {
    await parser.resolve(file, parsed as OpenAPIV3.Document, options);
    return parser.$refs.paths().length === 1;
  } catch {
    return false;
  }
}

/**
 * For a document of one file, the document as parsed is checked: bundling it changes only the text of its
 * internal $refs (json-schema-ref-parser's bundle moves values for external ones only), and the OpenAPI schema
 * check does not read that text (swagger-parser validates without formats), so it gets the verdict the bundled
 * document would, without a bundle pass (2 s on GitHub's 13 MB description). Should it fail, the bundled
 * check decides, as for a document of several files.
 */
async function validateDocument(file: string, parsed: unknown, thorough: boolean, reader: DocumentReader, oasVersion: OasVersion, oneFile: () => Promise<boolean>): Promise<void> {
  if (!thorough) {
    if (await oneFile()) {
      try {
        validateAgainstOpenApiSchema(parsed);
        return;
      } catch {
        // The bundled check below decides.
      }
    }
    try {
      validateAgainstOpenApiSchema(await SwaggerParser.bundle(file, reader.options));
      return;
    } catch {
      reader.rethrowRefusal();
      // The full validation below decides, and words the error.
    }
  }
  try {
    // validate() checks the document against the OpenAPI schema of its version and
    // resolves every $ref; it dereferences as it goes, hence the copy.
    await SwaggerParser.validate(structuredClone(parsed) as OpenAPIV3.Document, reader.options);
  } catch (error) {
    reader.rethrowRefusal();
    throw invalid(file, error as Error, oasVersion);
  }
}

interface DocumentReader {
  /** swagger-parser options: the bounded parsers and the $ref policy's resolvers. */
  readonly options: SwaggerParser.Options;
  /** The root file as parsed, before anything refused it. */
  readonly rootValue: unknown;
  /** Throws the KitError for the first cap met or reference refused, if any: the reason any later error happened. */
  rethrowRefusal(): void;
}

function documentReader(file: string, allowRefs: readonly string[]): DocumentReader {
  let refusal: KitError | undefined;
  let rootValue: unknown;
  let oas31 = false;
  const { json, yaml } = boundedParsers((cap) => {
    refusal ??= new KitError('SPEC_INVALID', `${cap.message}. The document is refused.`, { file: cap.file, reason: `${cap.cap} cap` });
  });
  const resolvers = policyResolvers({ root: file, allow: allowRefs }, (ref) => {
    refusal ??= new KitError('SPEC_INVALID', `${file}: ${ref.message}`, { file, ...(ref.at ? { pointer: ref.at.replace(/^[^#]*#?/, '') } : {}), reason: `$ref ${ref.reference} refused` });
  });
  // swagger-parser may read a file again (a bundle or a full validation when the quick check fails, an external
  // file again when the document is dereferenced); the YAML parser that caps aliases is several times slower than
  // js-yaml was, so each file is parsed once per load and handed out again as a copy (the reference parser edits
  // what it is given). The root is not copied when first parsed: its first reader is the loader's own parser,
  // which edits it (dereferences in place) only as its last step, after every other reading. (A copy of GitHub's
  // 13 MB description costs 0.3 s and its memory.)
  const parsedOnce = new Map<string, unknown>();
  // A 3.1 document's references are prepared (oas31-refs.ts) in every file it is made of, as each is parsed.
  const prepared = <P extends typeof json>(parser: P): P => ({
    ...parser,
    parse(input: { url: string; data: string | Buffer }) {
      const key = `${input.url}\n${input.data.length}`;
      if (parsedOnce.has(key)) return structuredClone(parsedOnce.get(key));
      const value = parser.parse(input);
      if (input.url === file || decodeURIOrSelf(input.url) === file) {
        rootValue = value;
        const version = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['openapi'] : undefined;
        oas31 = typeof version === 'string' && /^3\.1\.\d+$/.test(version);
      }
      if (oas31) prepareOas31References(value);
      parsedOnce.set(key, value === rootValue ? value : structuredClone(value));
      return value;
    },
  });
  return {
    options: {
      // Only YAML and JSON: the reference parser's text and binary parsers would make any file a string value.
      parse: { json: prepared(json), yaml: prepared(yaml), text: false, binary: false },
      resolve: { file: resolvers.file, http: resolvers.http, external: true },
    } as SwaggerParser.Options,
    get rootValue() {
      return rootValue;
    },
    rethrowRefusal() {
      if (refusal) throw refusal;
    },
  };
}

function decodeURIOrSelf(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function invalid(file: string, error: Error, oasVersion: OasVersion): KitError {
  const pointer = /#(\/[^\s'"]*)/.exec(error.message)?.[1] ?? '';
  const reason = error.message.replace(/\s+/g, ' ').trim();
  return new KitError('SPEC_INVALID', `${file}${pointer ? ` at ${pointer}` : ''} is not a valid OpenAPI ${oasVersion} document: ${reason}`, { file, pointer, reason });
}

/** OpenAPI 3.0.x and 3.1.x (the versions swagger-parser 13 validates); anything else is SPEC_UNSUPPORTED_VERSION. */
function assertSupportedVersion(parsed: unknown, file: string): OasVersion {
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['openapi'] : undefined;
  if (typeof version === 'string' && /^3\.0\.\d+$/.test(version)) return '3.0';
  if (typeof version === 'string' && /^3\.1\.\d+$/.test(version)) return '3.1';
  const swagger = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['swagger'] : undefined;
  const found = typeof version === 'string' ? `openapi: ${version}` : typeof swagger === 'string' ? `swagger: ${swagger}` : 'no openapi field';
  throw new KitError(
    'SPEC_UNSUPPORTED_VERSION',
    `${file} at /openapi: petstore-kit reads OpenAPI 3.0.x and 3.1.x documents; this one has ${found}.`,
    { file, pointer: '/openapi', reason: found },
  );
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text;
}
