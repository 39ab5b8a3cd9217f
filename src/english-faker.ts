/**
 * A private, seeded faker with English data only, for the mock's and the runner's generated values.
 *
 * Reached through faker's English-only entry: the package's main entry imports every locale (about 70 of them),
 * which costs a run's start some 180 ms of CPU (issue 33, point 2) and would weigh on a browser bundle of the mock
 * (petstore-kit/msw/browser). That entry exports an instance, not the class, so the class is its constructor.
 */
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';

const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions']; seed?: number }) => Faker;

/** A faker of its own (the shared one's seed would be everyone's), seeded when a seed is given. */
export function createEnglishFaker(seed?: number): Faker {
  return new FakerClass({ locale: englishFaker.rawDefinitions, ...(seed !== undefined ? { seed } : {}) });
}
