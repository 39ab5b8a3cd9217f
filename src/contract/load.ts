import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type SwaggerParser from '@apidevtools/swagger-parser';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { readCappedBytes } from './bounded-files.js';
import { CapExceeded, DOCUMENT_CAPS } from './caps.js';
import { findSelfContainingValue } from './data-cycles.js';
import { keepDocument, keptDocument, loadKey } from './load-cache.js';
import { conformsToOpenApiSchema } from './openapi-schema-check.js';
import { prepareOas31References } from './oas31-refs.js';
import { policyResolvers } from './ref-policy.js';
import { verifiedParse, writeVerifiedSnapshot } from './verified-snapshot.js';

/**
 * swagger-parser, loaded when a document is read from its text (it brings the OpenAPI schemas and their Ajv): a start
 * from the bundled document's verified snapshot only dereferences, which json-schema-ref-parser does alone.
 */
async function swaggerParser(): Promise<typeof SwaggerParser> {
  return (await import('@apidevtools/swagger-parser')).default;
}

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
  /**
   * `--strict`: a document that breaks the OpenAPI schema is refused. Otherwise (the default for a document from
   * elsewhere that is not read thoroughly) a document that breaks only its letter (an extra or misplaced keyword, a
   * `$ref` to a Markdown file where a description goes) loads, with a warning naming each spot (`warnings`).
   */
  readonly strictSchema?: boolean;
  /** The bundled document may be taken from the build's verified snapshot (default); false reads and checks its YAML. */
  readonly verifiedSnapshot?: boolean;
  /** Called with the bytes' SHA-256 and the document as parsed, once the load passed every check (the build's snapshot). */
  readonly onVerified?: (sha256: string, parsed: unknown) => void;
}

/** What a lenient load let through: where, and what. */
export interface LoadWarning {
  readonly pointer: string;
  readonly message: string;
}

/**
 * `npm run build`: loads the bundled openapi.yaml thoroughly, from its YAML, and keeps what it parsed for every
 * later start (verified-snapshot.ts). Throws, as a start would, when the document is not valid.
 */
export async function buildVerifiedSnapshot(snapshot?: string): Promise<void> {
  await loadDocument(DEFAULT_SPEC_PATH, { thorough: true, verifiedSnapshot: false, onVerified: (sha256, parsed) => writeVerifiedSnapshot(sha256, parsed, snapshot) });
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
  /** Where the document breaks the letter of the OpenAPI schema and was loaded all the same (LoadOptions.strictSchema). */
  readonly warnings?: readonly LoadWarning[];
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
    // Capped as it is read (issue 31, point 4): a document past the size cap is refused before it is held, and a
    // pipe (`--spec <(curl …)`) is read once, here; the reference parser is handed these bytes (ref-policy.ts).
    bytes = await readCappedBytes(file, DOCUMENT_CAPS.maxBytes);
  } catch (error) {
    if (error instanceof CapExceeded) throw sizeRefusal(error);
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((error as Error).message);
    throw new KitError('SPEC_NOT_FOUND', `Cannot read the OpenAPI document ${file}: ${reason}. Pass an existing file with --spec.`, { file, reason });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const thorough = options.thorough ?? file === DEFAULT_SPEC_PATH;
  const lenient = !thorough && options.strictSchema !== true;
  const key = `${loadKey(file, thorough, options.allowRefs ?? [])}${lenient ? '\u0000lenient' : ''}${options.verifiedSnapshot === false ? '\u0000from its YAML' : ''}`;
  const kept = keptDocument(key, sha256);
  if (kept) return kept;
  // The bundled document, these very bytes parsed and validated thoroughly at build time (verified-snapshot.ts): one
  // file, whose $refs are its own, dereferenced in place as below.
  const verified = file === DEFAULT_SPEC_PATH && thorough && options.verifiedSnapshot !== false ? verifiedParse(sha256) : undefined;
  if (verified !== undefined) {
    const oasVersion = assertSupportedVersion(verified, file);
    const refs = new $RefParser();
    const document = (await refs.dereference(file, verified as OpenAPIV3.Document, { resolve: { external: false }, mutateInputSchema: true })) as OpenAPIV3.Document;
    return keepDocument(key, { file, sha256, document, oasVersion }, bytes.length, refs.$refs.paths().length === 1);
  }
  const warnings: LoadWarning[] = [];
  const reader = await documentReader(file, bytes, options.allowRefs ?? [], warnings, lenient);
  const SwaggerParser = await swaggerParser();

  // One reference parser for the whole load: the root file is read and parsed once, validated as parsed, then
  // dereferenced in place, where three passes used to read, parse and copy it again (issue 22, point 8).
  const parser = new SwaggerParser();
  let parsed: unknown;
  // The build keeps what it parsed, before the dereference below edits it in place.
  let asParsed: unknown;
  try {
    parsed = await parser.parse(file, reader.options);
    if (options.onVerified) asParsed = structuredClone(parsed);
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

  try {
    await validateDocument(SwaggerParser, file, parsed, thorough, reader, oasVersion, () => isOneFile(parser, file, parsed, inPlace));
  } catch (error) {
    // Lenient: a document that breaks only the OpenAPI schema's letter loads, each spot a warning; one whose $refs do
    // not resolve, or that goes past a cap, is refused as before (the dereference below words it).
    const schemaOnly = lenient && error instanceof KitError && /Swagger schema validation failed/.test(error.message) && usable(parsed);
    if (!schemaOnly) throw error;
    warnings.push(...schemaWarnings(error.message));
  }
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
  if (options.onVerified) options.onVerified(sha256, asParsed);
  // After the dereference, the reference parser's $refs name every file the document was read from.
  return keepDocument(key, { file, sha256, document, oasVersion, ...(warnings.length > 0 ? { warnings } : {}) }, bytes.length, parser.$refs.paths().length === 1);
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
async function validateDocument(SwaggerParser: Awaited<ReturnType<typeof swaggerParser>>, file: string, parsed: unknown, thorough: boolean, reader: DocumentReader, oasVersion: OasVersion, oneFile: () => Promise<boolean>): Promise<void> {
  if (!thorough) {
    // swagger-parser's check of the OpenAPI schema (for OpenAPI 3.x, validate() is: dereference, then this), compiled
    // once per process (openapi-schema-check.ts); a no is worded by validate() below.
    if ((await oneFile()) && conformsToOpenApiSchema(parsed)) return;
    // Otherwise the bundled check below decides.
    // A file refused while the $refs were resolved (past a cap, outside the policy) is not read again: a pipe
    // would wait for a writer that is gone.
    reader.rethrowRefusal();
    try {
      if (conformsToOpenApiSchema(await SwaggerParser.bundle(file, reader.options))) return;
    } catch {
      reader.rethrowRefusal();
      // The full validation below decides, and words the error.
    }
  }
  try {
    // validate() checks the document against the OpenAPI schema of its version and
    // resolves every $ref; it dereferences as it goes, hence the copy. Given the document's path, so its relative
    // $refs are read beside it, not in the working directory (DigitalOcean's split description).
    await SwaggerParser.validate(file, structuredClone(parsed) as OpenAPIV3.Document, reader.options);
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

/** Whether a document that breaks the OpenAPI schema still has what the kit reads: `paths` (or 3.1's webhooks) as maps. */
function usable(parsed: unknown): boolean {
  if (typeof parsed !== 'object' || parsed === null) return false;
  const { paths, webhooks } = parsed as Record<string, unknown>;
  const map = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
  return (paths === undefined && map(webhooks)) || map(paths);
}

/** swagger-parser's schema failure (`#/servers/0/variables/hostname must NOT have ...`), one warning per spot. */
function schemaWarnings(message: string): LoadWarning[] {
  const out: LoadWarning[] = [];
  for (const match of message.matchAll(/#(\/[^\s]*) ([^#]*?)(?=\s+#\/|$)/g)) {
    out.push({ pointer: match[1]!, message: `breaks the OpenAPI schema (${match[2]!.trim().slice(0, 200)}); loaded as written, since it does not change what the document describes (--strict refuses it)` });
    if (out.length >= 50) break;
  }
  return out.length > 0 ? out : [{ pointer: '', message: `breaks the OpenAPI schema: ${message.slice(0, 300)}; loaded as written (--strict refuses it)` }];
}

/**
 * A `{ $ref }` where text goes (a `description` or a `summary`) to a file that is no YAML or JSON (a Markdown page): a
 * documentation tool's way of writing long text, which the reference policy would refuse to read. Lenient: the text
 * is left empty, with a warning naming the spot, and the file is never read.
 */
function textReferences(value: unknown, warnings: LoadWarning[], at = '', depth = 0, inProperties = false): void {
  if (typeof value !== 'object' || value === null || depth > 64) return;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const pointer = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const ref = typeof member === 'object' && member !== null && !Array.isArray(member) ? (member as Record<string, unknown>)['$ref'] : undefined;
    // A file of another kind (`./intro.md`), not a pointer within the document nor a YAML or JSON file; and not a
    // schema's property that happens to be called `description`.
    const file = typeof ref === 'string' ? ref.split('#')[0]!.split('?')[0]! : '';
    if (!inProperties && (key === 'description' || key === 'summary') && file !== '' && !/\.(ya?ml|json)$/i.test(file)) {
      (value as Record<string, unknown>)[key] = '';
      warnings.push({ pointer, message: `a $ref to ${String(ref).slice(0, 100)}, which is not a YAML or JSON file, where text goes: not read, the ${key} left empty (--strict refuses it)` });
      continue;
    }
    textReferences(member, warnings, pointer, depth + 1, key === 'properties' || key === 'patternProperties');
  }
}

/**
 * Members whose keys are names (of components, properties, headers, media types…), where an `x-` key is a name
 * (a header `x-rate-limit`, a property `x-id`), not a specification extension. `responses` is one under
 * `components` only: an operation's responses take extensions.
 */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems', 'webhooks', 'content', 'encoding', 'variables', 'mapping', 'scopes']);
/** Members holding data as written (a schema's example, default, enum or const, an Example's value): not walked. */
const DATA_MEMBERS = new Set(['example', 'default', 'enum', 'const', 'value']);

/** The specification extensions the kit itself reads, whose $refs it follows (docs/any-document.md, rules.md). */
function kitExtension(key: string): boolean {
  return key === 'x-unmatched-requests' || key === 'x-error-codes' || key.startsWith('x-mock-');
}

/**
 * OpenAPI 3.0.3 §4.9: a specification extension's value is plain data ("null, a primitive, an array or an object");
 * a `$ref` in it is no Reference Object and describes nothing the kit reads. Documentation tools use it to pull in
 * code samples (Dropbox Sign: `x-codeSamples: [{ source: { $ref: examples/X.php } }]` on 75 operations), which the
 * reference policy would refuse, and the whole document with them. So a `$ref` to another file (anything but `#…`)
 * inside an `x-` member of an OpenAPI object is taken out of the parsed file before anything resolves it: never read,
 * never refused; `found` is told of each. A `$ref` within the document (`#/…`) stays, as do those in the
 * extensions the kit reads (kitExtension), and a `$ref` anywhere else meets the policy as before.
 */
function extensionReferences(value: unknown, found: (pointer: string, reference: string) => void, at = '', depth = 0, names = false, parentKey = ''): void {
  if (typeof value !== 'object' || value === null || depth > 64) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => extensionReferences(item, found, `${at}/${index}`, depth + 1, false, parentKey));
    return;
  }
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const pointer = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (names) {
      extensionReferences(member, found, pointer, depth + 1, false, key);
      continue;
    }
    if (DATA_MEMBERS.has(key) || (key === 'examples' && Array.isArray(member))) continue;
    if (key.startsWith('x-')) {
      if (!kitExtension(key)) dropFileReferences(member, found, pointer, depth + 1);
      continue;
    }
    extensionReferences(member, found, pointer, depth + 1, NAME_MAPS.has(key) && (key !== 'responses' || parentKey === 'components'), key);
  }
}

/** A `$ref` whose value does not start with `#`, in JSON or YAML text (quoted or not): a file that may refer to another. */
const EXTERNAL_REF = /["']?\$ref["']?\s*:\s*["']?(?!#)[^\s"']/;

/** Every `$ref` to another file within an extension's value, removed (the object it sat in stays, as data). */
function dropFileReferences(value: unknown, found: (pointer: string, reference: string) => void, at: string, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > 64) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => dropFileReferences(item, found, `${at}/${index}`, depth + 1));
    return;
  }
  const record = value as Record<string, unknown>;
  const ref = record['$ref'];
  if (typeof ref === 'string' && !ref.startsWith('#')) {
    delete record['$ref'];
    found(`${at}/$ref`, ref);
  }
  for (const [key, member] of Object.entries(record)) dropFileReferences(member, found, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
}

async function documentReader(file: string, rootBytes: Buffer, allowRefs: readonly string[], warnings: LoadWarning[], lenient: boolean): Promise<DocumentReader> {
  const lenientWarnings = lenient ? warnings : undefined;
  // One warning for the whole document, at the first $ref left out of an extension (extensionReferences).
  let extensionRefWarned = false;
  const extensionRef = (url: string, pointer: string, reference: string): void => {
    if (extensionRefWarned) return;
    extensionRefWarned = true;
    const where = url === file || decodeURIOrSelf(url) === file ? '' : ` of ${url}`;
    warnings.push({
      pointer: where ? '' : pointer,
      message: `a $ref to ${reference.slice(0, 100)}${where ? ` at ${pointer}${where}` : ''}, inside a specification extension (whose value is plain data, OpenAPI 3.0.3 §4.9): not read and left out; any other such $ref to another file inside an extension is left out the same way, without a further warning`,
    });
  };
  let refusal: KitError | undefined;
  let rootValue: unknown;
  let oas31 = false;
  // The YAML parser is loaded only to read a document from its text: a start from the verified snapshot reads none.
  const { boundedParsers } = await import('./bounded-parsers.js');
  const capped = (cap: CapExceeded): void => {
    refusal ??= cap.cap === 'size' ? sizeRefusal(cap) : new KitError('SPEC_INVALID', `${cap.message}. The document is refused.`, { file: cap.file, reason: `${cap.cap} cap` });
  };
  const { json, yaml } = boundedParsers(capped);
  const resolvers = policyResolvers(
    { root: file, rootBytes, allow: allowRefs },
    (ref) => {
      refusal ??= new KitError('SPEC_INVALID', `${file}: ${ref.message}`, { file, ...(ref.at ? { pointer: ref.at.replace(/^[^#]*#?/, '') } : {}), reason: `$ref ${ref.reference} refused` });
    },
    capped,
  );
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
      // Only a file with a $ref to another file can hold one in an extension: the walk is spared for the rest (GitHub's
      // 13 MB description refers only within itself).
      if (EXTERNAL_REF.test(typeof input.data === 'string' ? input.data : input.data.toString('latin1'))) extensionReferences(value, (pointer, reference) => extensionRef(input.url, pointer, reference));
      if (oas31) prepareOas31References(value);
      if (lenientWarnings && value === rootValue) textReferences(value, lenientWarnings);
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

/** A file of the document past the size cap, worded as the parsers word it (bounded-parsers.ts). */
function sizeRefusal(cap: CapExceeded): KitError {
  return new KitError('SPEC_INVALID', `${cap.message} a file of a document may have. The document is refused.`, { file: cap.file, reason: 'size cap' });
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
