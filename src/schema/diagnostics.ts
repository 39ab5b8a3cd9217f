import type { ErrorObject } from 'ajv';

/**
 * The one shape every validation problem takes, in the mock's 400 details and
 * in the runner's reports alike (architecture principle 3).
 */
export interface Diagnostic {
  /** JSON pointer into the request or response: `/body/name`, `/query/limit`, `/path/petId`, `/header/x-total-count`. */
  readonly pointer: string;
  /** The schema keyword that failed (`required`, `type`, `enum`, …), or `coerce` for text that is not of the parameter's type. */
  readonly keyword: string;
  readonly message: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** Past this many problems, one more says how many were left out: a 1 MiB body of errors must not answer with 10 MiB. */
export const MAX_DIAGNOSTICS = 50;

/** Ajv's errors, rooted at `root` (e.g. `/body`), as Diagnostics. The only place Ajv's error format is read. */
export function toDiagnostics(errors: readonly ErrorObject[] | null | undefined, root: string): Diagnostic[] {
  if (!errors) return [];
  const out: Diagnostic[] = [];
  for (const error of errors) {
    if (out.length === MAX_DIAGNOSTICS) {
      out.push({ pointer: root || '/', keyword: 'truncated', message: `${errors.length - MAX_DIAGNOSTICS} more problems not listed` });
      break;
    }
    out.push(toDiagnostic(error, root));
  }
  return out;
}

function toDiagnostic(error: ErrorObject, root: string): Diagnostic {
  const at = `${root}${error.instancePath}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = String(params['missingProperty']);
      return { pointer: `${at}/${escape(name)}`, keyword: 'required', message: `is required`, expected: name };
    }
    case 'additionalProperties': {
      const name = String(params['additionalProperty']);
      const allowed = Object.keys((error.parentSchema?.['properties'] as object | undefined) ?? {});
      return {
        pointer: `${at}/${escape(name)}`,
        keyword: 'additionalProperties',
        message: `is not a known field${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`,
        expected: allowed,
        actual: name,
      };
    }
    case 'enum':
      return {
        pointer: at || '/',
        keyword: 'enum',
        message: `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        expected: params['allowedValues'],
        actual: clip(error.data),
      };
    case 'type':
      return { pointer: at || '/', keyword: 'type', message: `must be ${String(params['type'])}`, expected: params['type'], actual: clip(error.data) };
    case 'format':
      return { pointer: at || '/', keyword: 'format', message: `must be a valid ${String(params['format'])}`, expected: params['format'], actual: clip(error.data) };
    default:
      return { pointer: at || '/', keyword: error.keyword, message: error.message ?? 'is invalid', expected: error.schema, actual: clip(error.data) };
  }
}

/** Keeps evidence small: a diagnostic about a 1 MiB string must not carry the string. */
function clip(value: unknown): unknown {
  if (typeof value === 'string' && value.length > 100) return `${value.slice(0, 100)}…`;
  if (typeof value === 'object' && value !== null) {
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      // JSON.stringify recurses: 10,000 nested arrays in a request overflow the stack (RangeError). Evidence, not a crash.
      return Array.isArray(value) ? '[…]' : '{…}';
    }
    return text.length > 200 ? `${text.slice(0, 200)}…` : value;
  }
  return value;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
