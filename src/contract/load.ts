import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH } from '../package-info.js';

/**
 * swagger-parser's own check of a document against the OpenAPI 3.0 JSON
 * Schema, without the dereferencing its `validate()` does first (for OpenAPI
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
}

export interface LoadedDocument {
  /** Absolute path of the file read. */
  readonly file: string;
  /** SHA-256 of the file's bytes, hex: what a report cites so a vendor can prove which contract it ran. */
  readonly sha256: string;
  /** The document with every $ref resolved (shared objects stay shared). */
  readonly document: OpenAPIV3.Document;
}

/**
 * Reads, validates and dereferences an OpenAPI 3.0.x document, once.
 * Every failure becomes a KitError naming the file, a JSON pointer where
 * one is known, and the reason.
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

  let parsed: unknown;
  try {
    parsed = await SwaggerParser.parse(file);
  } catch (error) {
    const reason = firstLine((error as Error).message);
    // swagger-parser refuses a well-formed file with neither `openapi` nor `swagger` this way.
    if (/is not a valid \w+ API definition/i.test(reason)) assertOpenApi30({}, file);
    throw new KitError('SPEC_UNPARSABLE', `${file} is not a readable YAML or JSON document: ${reason}`, { file, reason });
  }

  assertOpenApi30(parsed, file);

  await validateDocument(file, parsed, options.thorough ?? file === DEFAULT_SPEC_PATH);
  let document: OpenAPIV3.Document;
  try {
    document = (await SwaggerParser.dereference(file)) as OpenAPIV3.Document;
  } catch (error) {
    throw invalid(file, error as Error);
  }
  return { file, sha256, document };
}

async function validateDocument(file: string, parsed: unknown, thorough: boolean): Promise<void> {
  if (!thorough) {
    try {
      validateAgainstOpenApiSchema(await SwaggerParser.bundle(file));
      return;
    } catch {
      // The full validation below decides, and words the error.
    }
  }
  try {
    // validate() checks the document against the OpenAPI 3.0 schema and
    // resolves every $ref; it dereferences as it goes, hence the copy.
    await SwaggerParser.validate(structuredClone(parsed) as OpenAPIV3.Document);
  } catch (error) {
    throw invalid(file, error as Error);
  }
}

function invalid(file: string, error: Error): KitError {
  const pointer = /#(\/[^\s'"]*)/.exec(error.message)?.[1] ?? '';
  const reason = error.message.replace(/\s+/g, ' ').trim();
  return new KitError('SPEC_INVALID', `${file}${pointer ? ` at ${pointer}` : ''} is not a valid OpenAPI 3.0 document: ${reason}`, { file, pointer, reason });
}

function assertOpenApi30(parsed: unknown, file: string): void {
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['openapi'] : undefined;
  if (typeof version === 'string' && /^3\.0\.\d+$/.test(version)) return;
  const swagger = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['swagger'] : undefined;
  const found = typeof version === 'string' ? `openapi: ${version}` : typeof swagger === 'string' ? `swagger: ${swagger}` : 'no openapi field';
  throw new KitError(
    'SPEC_UNSUPPORTED_VERSION',
    `${file} at /openapi: petstore-kit reads OpenAPI 3.0.x documents; this one has ${found}.`,
    { file, pointer: '/openapi', reason: found },
  );
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text;
}
