import { parse as parseYaml } from 'yaml';
import { assertDepth, CapExceeded, DOCUMENT_CAPS, depthExceeded } from './caps.js';

export { CapExceeded, DOCUMENT_CAPS, type CapName } from './caps.js';

/** The plugin shape json-schema-ref-parser takes in `options.parse` (its FileInfo, reduced to what is read here). */
export interface ParserPlugin {
  readonly order: number;
  readonly allowEmpty: boolean;
  readonly canParse: readonly string[] | string;
  parse(file: { url: string; data: string | Buffer }): unknown;
}

/**
 * Parsers for json-schema-ref-parser's `options.parse`, in place of its own:
 * JSON with `JSON.parse`, YAML with the `yaml` package (YAML 1.2 core schema:
 * the same values js-yaml's JSON schema gave before) with its alias cap. Both
 * check size before and depth after parsing. `refused` is told of a cap met,
 * since the reference parser wraps whatever a parser throws in its own error.
 */
export function boundedParsers(refused: (error: CapExceeded) => void): { json: ParserPlugin; yaml: ParserPlugin } {
  const capped = new Map<string, CapExceeded>();
  const guard = <T>(url: string, read: () => T): T => {
    // A file JSON.parse found past a cap is not given to the YAML parser next.
    const known = capped.get(url);
    if (known) throw known;
    try {
      return read();
    } catch (error) {
      const cap = asCapExceeded(error, url);
      if (cap) {
        capped.set(url, cap);
        refused(cap);
        throw cap;
      }
      throw error;
    }
  };
  return {
    json: {
      order: 100,
      allowEmpty: true,
      canParse: '.json',
      parse(file) {
        return guard(file.url, () => {
          const text = textOf(file.url, file.data);
          if (text.trim() === '') return undefined;
          // A byte order mark is allowed before the JSON (as json-schema-ref-parser's own parser allows it).
          const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
          assertDepth(file.url, value);
          return value;
        });
      },
    },
    yaml: {
      order: 200,
      allowEmpty: true,
      // JSON is YAML: a .json file JSON.parse refuses is tried here, as before.
      canParse: ['.yaml', '.yml', '.json'],
      parse(file) {
        return guard(file.url, () => {
          const text = textOf(file.url, file.data);
          assertFlowDepth(file.url, text);
          const value: unknown = parseYaml(text, { schema: 'core', maxAliasCount: DOCUMENT_CAPS.maxAliasCount, prettyErrors: false, logLevel: 'error' });
          assertDepth(file.url, value);
          return value ?? undefined;
        });
      },
    },
  };
}

/**
 * A YAML file the kit reads beside the document (an overlay) parsed with the document's caps on depth and YAML
 * aliases (issue 31, point 4); its size is capped by its reader (bounded-files.ts). A cap met throws CapExceeded,
 * for the caller to word in its own error code.
 */
export function parseBoundedYaml(url: string, text: string): unknown {
  try {
    assertFlowDepth(url, text);
    const value: unknown = parseYaml(text, { schema: 'core', maxAliasCount: DOCUMENT_CAPS.maxAliasCount, prettyErrors: false, logLevel: 'error' });
    assertDepth(url, value);
    return value;
  } catch (error) {
    throw asCapExceeded(error, url) ?? error;
  }
}

function textOf(url: string, data: string | Buffer): string {
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  if (bytes > DOCUMENT_CAPS.maxBytes) {
    throw new CapExceeded('size', url, `${url} is ${bytes} bytes, past the size cap of ${DOCUMENT_CAPS.maxBytes} bytes a file of a document may have`);
  }
  return typeof data === 'string' ? data : data.toString('utf8');
}

/**
 * The YAML parser composes nested flow collections (`[[[…]]]`) recursively,
 * slowly and until the stack overflows: brackets nested ten times past the
 * cap are refused before it starts. Quotes are not tracked, so a bracket in a
 * string counts too; no legitimate document leaves thousands of them open.
 */
function assertFlowDepth(url: string, text: string): void {
  const limit = DOCUMENT_CAPS.maxDepth * 10;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) throw depthExceeded(url);
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
}

/** The parsers' own refusals, by what they mean: the `yaml` package's alias guard, a stack overflow on a value nested too deep. */
function asCapExceeded(error: unknown, url: string): CapExceeded | undefined {
  if (error instanceof CapExceeded) return error;
  if (error instanceof ReferenceError && /excessive alias count/i.test(error.message)) {
    return new CapExceeded('aliases', url, `${url} expands YAML aliases past the alias cap (maxAliasCount ${DOCUMENT_CAPS.maxAliasCount}): nested aliases that multiply are a resource exhaustion attack`);
  }
  if (error instanceof Error && /maximum call stack/i.test(error.message)) return depthExceeded(url);
  return undefined;
}
