import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { KitError } from '../kit-error.js';

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
export async function loadDocument(path: string): Promise<LoadedDocument> {
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

  try {
    // validate() checks the document against the OpenAPI 3.0 schema and
    // resolves every $ref; it dereferences as it goes.
    await SwaggerParser.validate(structuredClone(parsed) as OpenAPIV3.Document);
  } catch (error) {
    const message = (error as Error).message;
    const pointer = /#(\/[^\s'"]*)/.exec(message)?.[1] ?? '';
    const reason = message.replace(/\s+/g, ' ').trim();
    throw new KitError('SPEC_INVALID', `${file}${pointer ? ` at ${pointer}` : ''} is not a valid OpenAPI 3.0 document: ${reason}`, { file, pointer, reason });
  }
  const document = (await SwaggerParser.dereference(file)) as OpenAPIV3.Document;
  return { file, sha256, document };
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
