/**
 * A collection of things (list, read) in a document of its own, and a target that answers each thing with a body as
 * large as a test asks: what the `--record` bounds tests (record-bounds.*.test.ts) record. The generic engine reads
 * the recording of any document, so the replay needs nothing of the Pet Store's.
 */
import { startUpstream } from './servers.js';

export const THINGS_SPEC = [
  'openapi: 3.0.3',
  'info: { title: Things, version: 1.0.0 }',
  'paths:',
  '  /things:',
  '    get:',
  '      operationId: listThings',
  "      responses: { '200': { description: Things, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } } }",
  '  /things/{id}:',
  '    get:',
  '      operationId: getThing',
  '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
  "      responses: { '200': { description: A thing, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } } }",
  'components:',
  '  schemas:',
  '    Thing: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string }, notes: {} } }',
].join('\n');

/** Answers every /things/{id} with the thing `make(id)` gives (`notes` free: a large string, a deep value). */
export function thingsTarget(notes: (id: number) => unknown): Promise<Awaited<ReturnType<typeof startUpstream>>> {
  return startUpstream((req, res) => {
    const id = Number(/^\/things\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, name: `Thing ${id}`, notes: notes(id) }));
  });
}
