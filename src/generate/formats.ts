/**
 * A value per string format a document may name (JSON Schema validation §7.3, OpenAPI 3.0.3 §4.4), drawn from
 * the caller's seeded faker. Dates depend on the style (walker.ts): a request's lie ahead (a delivery, an expiry
 * a server may refuse in the past), a record's in the recent past (when it was made).
 */
import type { Faker } from '@faker-js/faker';
import type { Style } from './walker.js';

const AHEAD = '2030-01-01T00:00:00Z';

function instant(faker: Faker, style: Style): string {
  const date = style === 'plain' ? faker.date.soon({ days: 30, refDate: AHEAD }) : faker.date.between({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
  return date.toISOString();
}

const slug = (faker: Faker): string => faker.string.alphanumeric(8).toLowerCase();

const FORMATS: Readonly<Record<string, (faker: Faker, style: Style) => string>> = {
  'date-time': (faker, style) => instant(faker, style).replace(/\.\d{3}Z$/, 'Z'),
  date: (faker, style) => instant(faker, style).slice(0, 10),
  time: () => '09:30:00Z',
  'iso-time': () => '09:30:00Z',
  'iso-date-time': (faker, style) => instant(faker, style).replace(/\.\d{3}Z$/, 'Z'),
  // ISO 8601 durations (RFC 3339 appendix A), as ajv-formats checks `duration`: a number of days or hours.
  duration: (faker) => (faker.datatype.boolean() ? `P${faker.number.int({ min: 1, max: 30 })}D` : `PT${faker.number.int({ min: 1, max: 23 })}H`),
  uri: (faker) => `https://example.com/${slug(faker)}`,
  url: (faker) => `https://example.com/${slug(faker)}`,
  'uri-reference': (faker) => `/${slug(faker)}`,
  // RFC 6570 level 1.
  'uri-template': (faker) => `https://example.com/${slug(faker)}/{id}`,
  email: (faker) => faker.internet.email().toLowerCase(),
  uuid: (faker) => faker.string.uuid(),
  hostname: () => 'example.com',
  ipv4: () => '192.0.2.1',
  ipv6: () => '2001:db8::1',
  // ECMA-262 regular expressions, as Ajv compiles them.
  regex: () => '^[a-z0-9]+$',
  // RFC 6901 and the relative JSON pointers of draft-handrews-relative-json-pointer.
  'json-pointer': (faker) => `/${slug(faker)}/0`,
  'json-pointer-uri-fragment': (faker) => `#/${slug(faker)}/0`,
  'relative-json-pointer': (faker) => `1/${slug(faker)}`,
  // RFC 4648 base64 of a short word; every base64 text of 4n characters is valid whatever its length.
  byte: (faker) => btoa(faker.word.noun()),
};

/** A string of the format, or undefined for a format the kit does not know (the caller writes free text). */
export function formatted(format: string | undefined, faker: Faker, style: Style): string | undefined {
  const make = format === undefined || !Object.hasOwn(FORMATS, format) ? undefined : FORMATS[format];
  return make?.(faker, style);
}

/** A free string that reads like its field (`email`, `name`, `city`), so generated records look like data. */
export function namedText(name: string, faker: Faker): string {
  const n = name.toLowerCase();
  if (n.includes('email')) return faker.internet.email().toLowerCase();
  if (n.endsWith('url') || n.endsWith('uri') || n === 'href' || n === 'link') return `https://example.com/${slug(faker)}`;
  if (n === 'firstname' || n === 'first_name' || n === 'givenname') return faker.person.firstName();
  if (n === 'lastname' || n === 'last_name' || n === 'familyname' || n === 'surname') return faker.person.lastName();
  if (n === 'name' || n.endsWith('name') || n === 'username' || n === 'login') return faker.person.firstName();
  if (n === 'city') return faker.location.city();
  if (n === 'country') return faker.location.country();
  if (n.includes('phone')) return faker.phone.number();
  if (n === 'title' || n === 'summary' || n === 'subject') return faker.lorem.words(3);
  if (n.includes('description') || n === 'body' || n === 'message' || n === 'text' || n === 'comment') return faker.lorem.sentence();
  if (n.endsWith('id') || n.endsWith('_id')) return faker.string.alphanumeric(10).toLowerCase();
  return faker.word.noun();
}
