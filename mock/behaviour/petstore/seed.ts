/**
 * The Pet Store's generated data set (`--seed N --pets K`): deterministic, and valid by construction (the engine does
 * not read it again at a million pets). Fixtures folders are read, and held to the schemas and the rule file, by the
 * engine (engine/files.ts, engine/initial.ts, behaviour/held-state.ts, the behaviour module's load hook).
 */
import type { Faker } from '@faker-js/faker';
import type { StoreSnapshot } from './domain.js';
import type { Category, Order, Pet, PetStatus } from '../../../src/types.js';
import { KitError } from '../../../src/kit-error.js';
import { mulberry32 } from '../../engine/random.js';

/** A store with nothing in it (`--fixtures none`). */
export const EMPTY_SNAPSHOT: StoreSnapshot = Object.freeze({
  categories: Object.freeze([]),
  pets: Object.freeze([]),
  orders: Object.freeze([]),
  inventory: Object.freeze([]),
});

const KINDS: readonly { readonly name: string; readonly breed: (faker: Faker) => string }[] = [
  { name: 'Dogs', breed: (f) => f.animal.dog() },
  { name: 'Cats', breed: (f) => f.animal.cat() },
  { name: 'Birds', breed: (f) => f.animal.bird() },
  { name: 'Fish', breed: (f) => f.animal.fish() },
  { name: 'Horses', breed: (f) => f.animal.horse() },
  { name: 'Rabbits', breed: (f) => f.animal.rabbit() },
  { name: 'Snakes', breed: (f) => f.animal.snake() },
  { name: 'Insects', breed: (f) => f.animal.insect() },
];

export interface GenerateOptions {
  /**
   * Each inventory entry written with its pet's status, after its quantity: the entry as the generic engine keeps it
   * (issue 34's seam), whose rule 6 the Pet Store's behaviour module (fixtures/rules/petstore.behaviour.mjs) would
   * otherwise write into every entry at start-up, a copy of each (a million at --pets 1000000: about a second, and the
   * copies' memory). The Pet Store's own store derives the status, and is given no such field.
   */
  readonly inventoryStatus?: boolean;
}

/**
 * A deterministic data set: the same seed and count give the same data.
 * About 60% of the pets are available, 15% pending (each with its open
 * order) and 25% sold (each with its complete order); every pet has an
 * inventory entry. It validates at the `fixtures` level.
 *
 * Faker is called a few thousand times to fill pools (names, ship dates), and
 * the per-pet loop draws from them with a small seeded generator: calling
 * faker a million times would take most of the start-up budget (issue 5:
 * 1,000,000 pets in a few seconds and well under 1 GB), and pooled strings
 * are shared, not copied per pet.
 *
 * Faker is imported here, when data is generated, not when the module loads:
 * its entry point loads every locale (about 0.2 s), which a mock serving the
 * default fixtures (`npm start`) would pay for nothing.
 */
export async function generateSnapshot(seed: number, pets: number, options: GenerateOptions = {}): Promise<StoreSnapshot> {
  if (!Number.isSafeInteger(pets) || pets < 0) throw new KitError('USAGE', `The number of pets to generate must be a whole number >= 0; got ${pets}.`);
  if (!Number.isSafeInteger(seed)) throw new KitError('USAGE', `The seed must be a whole number; got ${seed}.`);
  const { Faker, en } = await import('@faker-js/faker');
  // A private instance: the global faker's seed is shared by everything in the process.
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);

  const categories: Category[] = KINDS.map((kind, index) => {
    const breeds = faker.helpers.uniqueArray(() => kind.breed(faker), 3);
    return { id: index + 1, name: kind.name, description: `${kind.name} such as ${breeds.join(', ')}.` };
  });
  const names = [...new Set([...Array.from({ length: 200 }, () => faker.animal.petName()), ...Array.from({ length: 3000 }, () => faker.person.firstName())])];
  const shipDates = Array.from({ length: 365 }, () =>
    faker.date.between({ from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  );
  const random = mulberry32(faker.number.int({ min: 0, max: 0xffffffff }));
  const pick = <T>(pool: readonly T[]): T => pool[Math.floor(random() * pool.length)]!;

  const petList: Pet[] = new Array<Pet>(pets);
  const inventory: { petId: number; quantity: number; status?: PetStatus }[] = new Array<{ petId: number; quantity: number }>(pets);
  const withStatus = options.inventoryStatus === true;
  const orders: Order[] = [];
  for (let index = 0; index < pets; index++) {
    const id = index + 1;
    const draw = random();
    const status: PetStatus = draw < 0.6 ? 'available' : draw < 0.75 ? 'pending' : 'sold';
    petList[index] = { id, name: pick(names), categoryId: 1 + Math.floor(random() * categories.length), status };
    // Available pets have stock to order; a pending or sold pet's order has taken some already.
    const quantity = status === 'available' ? 1 + Math.floor(random() * 5) : Math.floor(random() * 3);
    inventory[index] = withStatus ? { petId: id, quantity, status } : { petId: id, quantity };
    if (status !== 'available') {
      orders.push({ id: orders.length + 1, petId: id, quantity: 1 + Math.floor(random() * 2), shipDate: pick(shipDates), complete: status === 'sold' });
    }
  }
  return { categories, pets: petList, orders, inventory };
}

