/**
 * Parameter values for a request: valid ones from the schemas (each checked
 * with the compiled validators before it is sent), the ones a record was
 * created with, and the path values the document itself rules out.
 */
import { IGNORED_HEADER_PARAMETERS, type Operation, type ParameterSpec } from '../../src/contract/index.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { isObject, mergeAllOf, parameterCandidates, propertiesOf, schema, type Generator, type Schema } from '../generate.js';
import { cookieHeader, serializeParameter } from './serialize.js';
import { toParamValue, type ParamValue } from './values.js';


export class RequestParameters {
  constructor(private readonly compiled: CompiledContract) {}

  /**
   * Why a request with these path values is one the operation's own parameters rule out (an order id 20 where
   * getOrderById takes 1 to 10, while the Order schema bounds nothing), as `getOrderById does not take /path/orderId
   * (must be <= 10): the document itself rules that request out`; undefined when they pass. A value the target gave
   * back that way is the document contradicting itself, not the target: the refusal it would get says nothing.
   */
  ruledOutPath(operation: Operation, path: Readonly<Record<string, ParamValue>>): string | undefined {
    const validators = this.compiled.operations.get(operation.operationId);
    if (!validators) return undefined;
    const texts = Object.fromEntries(Object.entries(path).map(([name, value]) => [name, Array.isArray(value) ? String(value[0] ?? '') : String(value)]));
    const checked = validators.parameters({ path: texts, query: {}, headers: {} });
    const first = checked.ok ? undefined : checked.diagnostics.find((d) => d.pointer.startsWith('/path/'));
    return first ? `${operation.operationId} does not take ${first.pointer} (${first.message}): the document itself rules that request out` : undefined;
  }

  /** A value its schema accepts for a parameter (generate.ts parameterCandidates, validated here before it is sent), or undefined when none is. */
  validParameterValue(parameter: ParameterSpec, generator: Generator): ParamValue | undefined {
    const valid = (candidate: unknown): boolean => this.compiled.validate(parameter.schema, candidate, 'request').length === 0;
    const candidates = parameterCandidates(parameter, generator);
    let value = candidates.find(valid);
    if (parameter.required && parameter.in === 'query' && isEmptyValue(value)) {
      // An object with no members or an array with no items goes on the wire as nothing (`form`, exploded: no pair
      // at all), which a server reads as the required parameter missing (Typesense's searchParameters, an object of
      // 72 optional members): a required one is sent with something in it where its schema allows.
      value = candidates.find((candidate) => !isEmptyValue(candidate) && valid(candidate)) ?? withOneMember(parameter, generator, valid) ?? value;
    }
    return value === undefined ? undefined : toParamValue(value);
  }

  /**
   * `query` with each required query parameter the link left out taken from the record as it was sent, where it
   * has a field of that name the parameter accepts: Adyen's `DELETE /storedPaymentMethods/{id}` requires the
   * shopperReference and merchantAccount the record was stored with, and a made-up pair names no record. What the
   * record cannot give is left to the call, which fills it with a valid value.
   */
  recordQuery(operation: Operation, query: Readonly<Record<string, ParamValue>>, sent: unknown): Record<string, ParamValue> {
    const out: Record<string, ParamValue> = { ...query };
    if (!isObject(sent)) return out;
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'query' || !parameter.required || parameter.name in out) continue;
      const value = sent[parameter.name];
      if ((typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && this.compiled.validate(parameter.schema, value, 'request').length === 0) out[parameter.name] = value;
    }
    return out;
  }

  /**
   * The header and cookie parameters of an operation that `include` picks, each a value its schema accepts
   * (serialize.ts writes it); a header in `given` is left to the caller. Case.call sends the required ones always and
   * the optional ones on every other call; the clean-up, which sends its requests itself, the required ones (Xero's
   * `xero-tenant-id`: without it every clean-up read was refused with 400).
   */
  headerParameters(operation: Operation, generator: Generator, given: Readonly<Record<string, string>>, include: (spec: ParameterSpec) => boolean): Record<string, string> {
    const out: Record<string, string> = {};
    const cookies: (readonly [string, string])[] = [];
    const givenNames = new Set(Object.keys(given).map((name) => name.toLowerCase()));
    for (const spec of operation.parameters) {
      if (spec.in !== 'header' && spec.in !== 'cookie') continue;
      if (spec.in === 'header' && (IGNORED_HEADER_PARAMETERS.has(spec.name.toLowerCase()) || givenNames.has(spec.name.toLowerCase()))) continue;
      if (!include(spec)) continue;
      const value = this.validParameterValue(spec, generator);
      if (value === undefined) continue;
      const serialized = serializeParameter(spec, value);
      if (serialized.header) out[serialized.header[0].toLowerCase()] = serialized.header[1];
      cookies.push(...(serialized.cookie ?? []));
    }
    if (cookies.length > 0 && !givenNames.has('cookie')) out['cookie'] = cookieHeader(cookies);
    return out;
  }

  /**
   * `given` with every required query parameter it leaves out filled with a value its schema accepts (Case.call, and
   * the clean-up, which sends its requests itself). An explicit `undefined` leaves a parameter out on purpose.
   */
  withRequiredQuery<Q extends Readonly<Record<string, ParamValue | undefined>>>(operation: Operation, given: Q | undefined, generator: Generator): Q | Record<string, ParamValue | undefined> | undefined {
    const missing = operation.parameters.filter((p) => p.in === 'query' && p.required && !(given !== undefined && p.name in given));
    if (missing.length === 0) return given;
    const out: Record<string, ParamValue | undefined> = { ...(given ?? {}) };
    for (const spec of missing) out[spec.name] = this.validParameterValue(spec, generator);
    return out;
  }

  /** The operation's required header and cookie parameters, for a request sent outside Case.call (probes, clean-up, a Location read). */
  requiredHeaders(operation: Operation, generator: Generator): Record<string, string> {
    return this.headerParameters(operation, generator, {}, (spec) => spec.required === true);
  }
}

function isEmptyValue(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
}

/** An object of one member (the first its schema declares that makes a valid value), or an array of one item. */
function withOneMember(parameter: ParameterSpec, generator: Generator, valid: (candidate: unknown) => boolean): unknown {
  const s = mergeAllOf(parameter.schema);
  if (s.type === 'array' || 'items' in s) {
    const item = generator.sample(schema((s as { items?: Schema }).items ?? {}), 1);
    return item !== undefined && valid([item]) ? [item] : undefined;
  }
  for (const [name, raw] of Object.entries(propertiesOf(s))) {
    const member = mergeAllOf(raw);
    if (member.readOnly) continue;
    const sampled = generator.sample(member, 1);
    if (sampled === undefined || typeof sampled === 'object') continue;
    if (valid({ [name]: sampled })) return { [name]: sampled };
  }
  return undefined;
}
