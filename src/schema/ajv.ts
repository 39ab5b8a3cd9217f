import { Ajv, type Format, type FormatDefinition, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { linearRegExp } from './safe-pattern.js';
import { rememberVerdicts } from './verdict-memo.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Which JSON Schema a document's schemas are written in: OpenAPI 3.0's
 * (draft-07 Ajv, with `nullable`), or JSON Schema 2020-12 for OpenAPI 3.1
 * (OpenAPI 3.1 §4.8.24: the Schema Object is a superset of 2020-12).
 */
export type SchemaDialect = '3.0' | '3.1';

/**
 * OpenAPI schema keywords that are annotations, not assertions. Declaring
 * them keeps Ajv strict (a typo such as `minLenght` still fails at start-up)
 * without silencing unknown keywords wholesale, which is how Prism let
 * contract mistakes ship. `x-` extensions are stripped before compiling
 * (see oas-to-json-schema.ts), since Ajv cannot declare a keyword pattern.
 */
const OPENAPI_ANNOTATIONS = ['example', 'externalDocs', 'xml'] as const;

/** The single Ajv factory of the kit: every validator anywhere is compiled by an instance made here. */
export function createAjv(options: Options = {}, dialect: SchemaDialect = '3.0'): Ajv {
  const settings: Options = {
    strict: true,
    // `nullable: true` with a `type` is OpenAPI 3.0's null; Ajv implements it natively.
    allErrors: true,
    verbose: true,
    discriminator: true,
    // Defaults are applied by the mock's handlers from the document, not by mutating input during validation.
    useDefaults: false,
    coerceTypes: false,
    ...options,
  };
  // Ajv2020 shares Ajv's whole public surface (both extend Ajv's core); only the default dialect differs.
  const ajv: Ajv = dialect === '3.1' ? new Ajv2020(settings) : new Ajv(settings);
  addFormats(ajv);
  rememberFormatVerdicts(ajv);
  ajv.addVocabulary([...OPENAPI_ANNOTATIONS]);
  return ajv;
}

/**
 * The string formats, each with its verdicts kept by value (verdict-memo.ts): the mock checks every answer of a
 * document from elsewhere, with the same `date-time`s and `uri`s in it each time. The same checks, the same
 * verdicts; Ajv calls a function format as it tests a RegExp one (ajv/lib/vocabularies/format/format.ts).
 */
function isSyncStringFormat(format: Format): format is FormatDefinition<string> {
  return typeof format === 'object' && !(format instanceof RegExp) && format.type !== 'number' && !('async' in format && format.async === true);
}

function rememberFormatVerdicts(ajv: Ajv): void {
  for (const [name, format] of Object.entries(ajv.formats)) {
    if (format instanceof RegExp) ajv.addFormat(name, rememberVerdicts((value) => format.test(value)));
    else if (typeof format === 'function') ajv.addFormat(name, rememberVerdicts(format));
    else if (format !== undefined && isSyncStringFormat(format)) {
      const check = format.validate;
      if (check instanceof RegExp) ajv.addFormat(name, { ...format, validate: rememberVerdicts((value) => check.test(value)) });
      else if (typeof check === 'function') ajv.addFormat(name, { ...format, validate: rememberVerdicts(check) });
    }
  }
}

/**
 * The Ajv for a document from elsewhere, taken as valid OpenAPI. Ajv's strict
 * mode changes no validation result, it only refuses to compile, so all of it
 * is off: an annotation Ajv does not know, `required` or `properties` without
 * `type: object`, a `type` list, an `items` array without bounds (strictTypes,
 * strictRequired, strictTuples) are legal JSON Schema and not a reason to
 * leave a vendor's schema unchecked. Also: no Ajv discriminator (an
 * annotation in OpenAPI; its mapping and allOf forms are not Ajv's), silent
 * (what it cannot use is a contract warning instead), references kept as
 * calls rather than inlined, so shared schemas are compiled once however many
 * operations use them, and patterns run by a linear-time engine
 * (safe-pattern.ts): a document's pattern must not be able to hang the run.
 */
export function createLenientAjv(options: Options = {}, dialect: SchemaDialect = '3.0'): Ajv {
  return createAjv(
    {
      strict: false,
      strictSchema: false,
      strictNumbers: false,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
      allowMatchingProperties: true,
      discriminator: false,
      logger: false,
      inlineRefs: false,
      code: { regExp: linearRegExp },
      ...options,
    },
    dialect,
  );
}

/** The Ajv for a contract: strict for our own document, lenient for any other; the dialect of its OpenAPI version. */
export function ajvFor(contract: { readonly strict: boolean; readonly oasVersion?: SchemaDialect }, options: Options = {}): Ajv {
  return contract.strict ? createAjv(options, contract.oasVersion) : createLenientAjv(options, contract.oasVersion);
}
