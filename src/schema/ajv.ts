import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * OpenAPI 3.0 schema keywords that are annotations, not assertions. Declaring
 * them keeps Ajv strict (a typo such as `minLenght` still fails at start-up)
 * without silencing unknown keywords wholesale, which is how Prism let
 * contract mistakes ship. `x-` extensions are stripped before compiling
 * (see oas-to-json-schema.ts), since Ajv cannot declare a keyword pattern.
 */
const OPENAPI_ANNOTATIONS = ['example', 'externalDocs', 'xml'] as const;

/** The single Ajv factory of the kit: every validator anywhere is compiled by an instance made here. */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({
    strict: true,
    // `nullable: true` with a `type` is OpenAPI 3.0's null; Ajv implements it natively.
    allErrors: true,
    verbose: true,
    discriminator: true,
    // Defaults are applied by the mock's handlers from the document, not by mutating input during validation.
    useDefaults: false,
    coerceTypes: false,
    ...options,
  });
  addFormats(ajv);
  ajv.addVocabulary([...OPENAPI_ANNOTATIONS]);
  return ajv;
}

/**
 * The Ajv for a document from elsewhere, taken as valid OpenAPI: not strict
 * (an OpenAPI annotation Ajv does not know, or a `properties` without
 * `type: object`, is not a reason to refuse a vendor's document), no Ajv
 * discriminator (an annotation in OpenAPI; its mapping and allOf forms are
 * not Ajv's), silent (what it cannot use is a contract warning instead), and
 * references kept as calls rather than inlined, so shared schemas are compiled
 * once however many operations use them.
 */
export function createLenientAjv(): Ajv {
  return createAjv({ strict: false, discriminator: false, logger: false, inlineRefs: false });
}
