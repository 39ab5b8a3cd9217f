import { stringifyJson } from '../json.js';
import type { Contract } from '../../src/contract/index.js';
import { isObject, jsonBodyOf, schema } from '../generate.js';
import { bodyFields, nonJsonNumberTexts } from '../requests/boundaries.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { documentedStatus, judgeRejection, jsonBodyOperations, snapshot, stateChanged } from './support.js';

/**
 * A body declared as JSON that is not well-formed JSON (RFC 8259) gets a 400 (or the 4xx the document names) and
 * changes nothing: cut short, single-quoted, or with a numeric field written NaN, Infinity or -Infinity (§6).
 */
export const malformedJson: CheckDefinition = {
  id: 'malformed-json',
  family: 'negative',
  description: 'A body that is not well-formed JSON (cut short, single-quoted, NaN or Infinity in a numeric field) gets a 4xx (400 where documented) and changes nothing.',
  explain: {
    why: 'A body that is not JSON must be refused before it reaches the data; a 5xx or a 2xx means the server parsed or stored garbage.',
    conformant: '`400` with the Error shape (code MALFORMED_JSON), and nothing changed.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for await (const { operation, where, inputs } of jsonBodyOperations(ctx, 'malformed-json', 'malformed JSON')) {
      const valid = stringifyJson(inputs.body);
      // A body of one character (a top-level `5`) cut short is no body at all, which an optional body may be: the
      // malformed text is then the body and a stray comma after it.
      const cut = valid.slice(0, -1).trim() === '' ? { description: 'the valid body followed by a stray comma', text: `${valid},` } : { description: 'the valid body cut short by its last character', text: valid.slice(0, -1) };
      const variants = [
        { pointer: '', ...cut },
        { pointer: '', description: "the valid body with single quotes instead of double quotes", text: valid.replace(/"/g, "'") },
        // A number JSON cannot write, in each numeric field: parsers beside JSON's (JSON5, Python's) read it.
        ...(isObject(inputs.body) ? nonJsonNumberTexts(inputs.body, bodyFields(schema(jsonBodyOf(operation)?.schema), inputs.body), stringifyJson).map((v) => ({ ...v, description: `the valid body with ${v.description}` })) : []),
      ];
      for (const variant of variants) {
        const c = ctx.newCase('malformed-json', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'malformed-json', pointer: variant.pointer, description: variant.description };
        if (isJson(variant.text)) {
          c.skip('the text parses as JSON; not counted');
          continue;
        }
        const before = await snapshot(c, operation, inputs);
        const call = await c.call(operation, { path: inputs.path, query: inputs.query, bodyText: variant.text });
        judgeRejection(c, call, documentedStatus(operation, 400), [...(await stateChanged(c, before)), ...wrongCode(ctx.contract, call.status, call.json)], inputs);
      }
    }
  },
};

/**
 * When x-error-codes names a code for bodies that are not JSON (MALFORMED_JSON
 * here: found by its name or description, for the status answered), that is
 * the code to give: a VALIDATION_FAILED would tell the client its JSON was
 * read. A body without a code is error-shape's finding.
 */
function wrongCode(contract: Contract, status: number | undefined, body: unknown): Finding[] {
  const code = isObject(body) ? body['code'] : undefined;
  if (typeof code !== 'string' || status === undefined) return [];
  const candidates = [...contract.errorCodes.values()].filter((spec) => spec.status === status && /malformed|not (well-formed|valid) json|json syntax/i.test(`${spec.code} ${spec.description}`));
  if (candidates.length === 0 || candidates.some((spec) => spec.code === code)) return [];
  return [{ pointer: '/body/code', keyword: 'x-error-codes', message: `a body that is not JSON is ${candidates.map((s) => s.code).join(' or ')} in x-error-codes, not ${code}`, expected: candidates.map((s) => s.code).join(' or '), actual: code }];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
