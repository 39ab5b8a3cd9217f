/**
 * Values built from a document's schemas, for a foreign document's initial records and for answers it has no
 * example for (issue 22, points 3 and 4). Seeded: the same seed gives the same values, run after run. Faker is a
 * private instance (never the global one) and bundles for a browser, so the core stays free of Node.
 *
 * A value is built for one view (OpenAPI 3.0.3 §4.7.24): an answer carries `readOnly` fields and never
 * `writeOnly` ones; a request the other way round. The caller validates what comes out (the document decides),
 * and asks again with another `variant` (other branches of `oneOf`/`anyOf`, other enum values) when it fails.
 */
import type { Faker } from '@faker-js/faker';
import { createEnglishFaker } from '../../src/english-faker.js';
import { sampleFromPattern } from '../../src/pattern-sample.js';
import { allowsNull, asSchema, mergeAllOf, typeOf, type JsonObject, type Schema } from './schemas.js';

export type View = 'response' | 'request';

/** Deeper than this, objects carry only their required fields and arrays their minimum: cyclic schemas end. */
const RICH_DEPTH = 2;
const MAX_DEPTH = 8;

export class ValueGenerator {
  readonly faker: Faker;

  constructor(seed: number) {
    this.faker = createEnglishFaker(seed);
  }

  value(raw: Schema, view: View, variant = 0, depth = 0, name = ''): unknown {
    const s = mergeAllOf(raw);
    // JSON Schema 2020-12 §6.1.3 (OpenAPI 3.1): `const` is the only value there is.
    if ('const' in s) return structuredClone((s as { const?: unknown }).const);
    // The document's own words first: an example (3.1's `examples` list too) or a default (variant 0), else one of the enum's values.
    const given = variant === 0 ? (s.example ?? firstExample(s) ?? s.default ?? undefined) : undefined;
    if (given !== undefined && given !== null) return structuredClone(given as unknown);
    const options = s.enum?.filter((option) => option !== null) ?? [];
    if (options.length > 0) return options[variant % options.length];
    const branches = [...(s.oneOf ?? []), ...(s.anyOf ?? [])];
    if (branches.length > 0) {
      // One branch per variant, with the keywords beside oneOf/anyOf (`type`, `properties`) applying to it too.
      const { oneOf: _oneOf, anyOf: _anyOf, ...beside } = s;
      return this.value({ allOf: [beside, asSchema(branches[variant % branches.length])] }, view, variant, depth, name);
    }
    switch (typeOf(s)) {
      case 'integer':
        return this.integer(s, name);
      case 'number':
        return this.number(s);
      case 'boolean':
        return this.faker.datatype.boolean();
      case 'array':
        return this.array(s, view, variant, depth, name);
      case 'object':
        return this.object(s, view, variant, depth);
      case 'string':
        return this.string(s, name);
      case 'null':
        return null;
      default:
        return allowsNull(s) ? null : this.string(s, name);
    }
  }

  private integer(s: Schema, name: string): number {
    const min = lowerBound(s, 1, true);
    const max = upperBound(s, min + (/id$/i.test(name) ? 10_000 : 100), true);
    const step = typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
    const value = this.faker.number.int({ min: Math.ceil(min / step), max: Math.max(Math.ceil(min / step), Math.floor(max / step)) }) * step;
    return Number.isSafeInteger(value) ? value : min;
  }

  private number(s: Schema): number {
    const min = lowerBound(s, 0, false);
    const max = upperBound(s, min + 100, false);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) return Math.ceil(min / s.multipleOf) * s.multipleOf;
    return Math.round(this.faker.number.float({ min, max }) * 100) / 100;
  }

  private array(s: Schema, view: View, variant: number, depth: number, name: string): unknown[] {
    // JSON Schema 2020-12 §10.3.1.1-2 (OpenAPI 3.1): `prefixItems` gives the first positions, `items` the rest
    // (`items: false`: nothing after them).
    const prefix = prefixItemsOf(s);
    const rest: unknown = 'items' in s ? s.items : undefined;
    const items = asSchema(rest === false || rest === true ? undefined : (rest as Schema | undefined));
    const wanted = Math.max(prefix.length, depth > RICH_DEPTH ? (s.minItems ?? 0) : Math.max(1, s.minItems ?? 1));
    const length = Math.min(rest === false ? prefix.length : wanted, s.maxItems ?? Number.POSITIVE_INFINITY);
    const out: unknown[] = [];
    for (let i = 0; i < length && depth < MAX_DEPTH; i += 1) out.push(this.value(prefix[i] ?? items, view, s.uniqueItems ? variant + i : variant, depth + 1, name));
    return out;
  }

  private object(s: Schema, view: View, variant: number, depth: number): JsonObject {
    const out: JsonObject = {};
    const properties = s.properties ?? {};
    const required = new Set(s.required ?? []);
    for (const [name, raw] of Object.entries(properties)) {
      const property = mergeAllOf(asSchema(raw));
      if (view === 'response' ? property.writeOnly : property.readOnly) continue;
      // Rich near the top (every field a front end shows), lean below, so a cyclic schema ends.
      if (!required.has(name) && (depth >= RICH_DEPTH || (s.minProperties === undefined && property.deprecated))) continue;
      if (depth >= MAX_DEPTH && !required.has(name)) continue;
      out[name] = depth >= MAX_DEPTH ? null : this.value(property, view, variant, depth + 1, name);
    }
    return out;
  }

  private string(s: Schema, name: string): string {
    if (s.pattern) {
      const matched = this.fromPattern(s.pattern);
      if (matched !== undefined) return matched;
    }
    const text = this.formatted(s.format, name);
    return fit(text, s);
  }

  private formatted(format: string | undefined, name: string): string {
    const make = format === undefined || !Object.hasOwn(FORMATS, format) ? undefined : FORMATS[format];
    return make ? make(this.faker) : this.named(name);
  }

  /** A free string that reads like its field (`email`, `name`, `city`), so generated records look like data. */
  private named(name: string): string {
    const n = name.toLowerCase();
    if (n.includes('email')) return this.faker.internet.email().toLowerCase();
    if (n.endsWith('url') || n.endsWith('uri') || n === 'href' || n === 'link') return `https://example.com/${this.faker.string.alphanumeric(8).toLowerCase()}`;
    if (n === 'firstname' || n === 'first_name' || n === 'givenname') return this.faker.person.firstName();
    if (n === 'lastname' || n === 'last_name' || n === 'familyname' || n === 'surname') return this.faker.person.lastName();
    if (n === 'name' || n.endsWith('name') || n === 'username' || n === 'login') return this.faker.person.firstName();
    if (n === 'city') return this.faker.location.city();
    if (n === 'country') return this.faker.location.country();
    if (n.includes('phone')) return this.faker.phone.number();
    if (n === 'title' || n === 'summary' || n === 'subject') return this.faker.lorem.words(3);
    if (n.includes('description') || n === 'body' || n === 'message' || n === 'text' || n === 'comment') return this.faker.lorem.sentence();
    if (n.endsWith('id') || n.endsWith('_id')) return this.faker.string.alphanumeric(10).toLowerCase();
    return this.faker.word.noun();
  }

  /** A string matching the pattern (randexp, src/pattern-sample.ts), drawn from this generator's seeded faker; undefined when none does. */
  private fromPattern(pattern: string): string | undefined {
    return sampleFromPattern(pattern, (from, to) => this.faker.number.int({ min: from, max: to }));
  }
}

const day = (faker: Faker): string => faker.date.between({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }).toISOString();
const path = (faker: Faker): string => faker.string.alphanumeric(8).toLowerCase();

/** A value per string format the document may name (JSON Schema validation §7.3, OpenAPI 3.0.3 §4.4). */
const FORMATS: Readonly<Record<string, (faker: Faker) => string>> = {
  'date-time': (faker) => day(faker).replace(/\.\d{3}Z$/, 'Z'),
  date: (faker) => day(faker).slice(0, 10),
  time: () => '09:30:00Z',
  uri: (faker) => `https://example.com/${path(faker)}`,
  url: (faker) => `https://example.com/${path(faker)}`,
  'uri-reference': (faker) => `/${path(faker)}`,
  email: (faker) => faker.internet.email().toLowerCase(),
  uuid: (faker) => faker.string.uuid(),
  hostname: () => 'example.com',
  ipv4: () => '192.0.2.1',
  ipv6: () => '2001:db8::1',
  byte: () => 'aGVsbG8=',
};

/** A 3.1 schema's `examples` list (JSON Schema 2020-12 meta-data §9.5): its first entry. */
function firstExample(s: Schema): unknown {
  const examples: unknown = (s as { examples?: unknown }).examples;
  return Array.isArray(examples) ? (examples[0] as unknown) : undefined;
}

/** A 3.1 array schema's `prefixItems` (JSON Schema 2020-12 §10.3.1.1), empty where it has none. */
export function prefixItemsOf(s: Schema): readonly Schema[] {
  const prefix: unknown = (s as { prefixItems?: unknown }).prefixItems;
  return Array.isArray(prefix) ? prefix.map((item) => asSchema(item as Schema)) : [];
}

/** The bounds as numbers: 3.0's `exclusiveMinimum: true` beside `minimum`, or 3.1's `exclusiveMinimum: 5` alone (2020-12 §6.2.5). */
function lowerBound(s: Schema, fallback: number, integer: boolean): number {
  const exclusive: unknown = s.exclusiveMinimum;
  if (typeof exclusive === 'number') return Math.max(exclusive + (integer ? 1 : 0.01), typeof s.minimum === 'number' ? s.minimum : Number.NEGATIVE_INFINITY);
  if (typeof s.maximum === 'number' && s.maximum < fallback) return s.maximum - 100;
  return fallback;
}

function upperBound(s: Schema, fallback: number, integer: boolean): number {
  const exclusive: unknown = s.exclusiveMaximum;
  if (typeof exclusive === 'number') return Math.min(exclusive - (integer ? 1 : 0.01), typeof s.maximum === 'number' ? s.maximum : Number.POSITIVE_INFINITY);
  if (typeof s.maximum === 'number') return s.exclusiveMaximum === true ? s.maximum - (integer ? 1 : 0.01) : s.maximum;
  return fallback;
}

function fit(text: string, s: Schema): string {
  let out = text;
  const min = s.minLength ?? 0;
  while (out.length < min) out += out.length > 0 ? out : 'x';
  if (s.maxLength !== undefined) out = out.slice(0, Math.max(min, s.maxLength));
  return out;
}
