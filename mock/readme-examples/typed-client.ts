import createClient from 'openapi-fetch';
import type { components, paths } from 'petstore-kit/types';

type Pet = components['schemas']['Pet'];

/** Lists available pets and adds one, with every path, parameter and body checked by the compiler. */
export async function petsOf(baseUrl: string, session: string): Promise<{ total: number; created: Pet }> {
  const client = createClient<paths>({ baseUrl, headers: { 'X-Mock-Session': session } });

  const { data: pets, error, response } = await client.GET('/pets', { params: { query: { status: 'available', limit: 5 } } });
  if (error) throw new Error(`${error.code}: ${error.message}`);
  const total = Number(response.headers.get('X-Total-Count'));
  console.log(`${total} available pets, first: ${pets[0]?.name}`);

  const { data: created, error: refused } = await client.POST('/pets', { body: { name: 'Rex', categoryId: pets[0]?.categoryId ?? 1 } });
  if (refused) throw new Error(`${refused.code}: ${refused.message}`);
  return { total, created };
}
