/**
 * The generic engine's behaviours over HTTP on a small foreign document written for them (issue 22, points 1, 2,
 * 4 and 6): an envelope list with a total and a cursor, a nested collection scoped to its parent, PATCH with
 * RFC 7396 merge semantics, server-owned fields, --fixtures DIR, and an overlay that corrects an inference.
 * Every answer is checked against the document (foreign-client.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Blog, version: '1' }
paths:
  /posts:
    get:
      operationId: listPosts
      parameters:
        - { name: author, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 10 } }
        - { name: cursor, in: query, schema: { type: string } }
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema:
                type: object
                required: [data, total]
                properties:
                  data: { type: array, items: { $ref: '#/components/schemas/Post' } }
                  total: { type: integer }
                  next_cursor: { type: string }
    post:
      operationId: createPost
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
      responses:
        '201':
          description: created
          headers: { Location: { schema: { type: string } } }
          content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } }
  /posts/{postId}:
    parameters: [{ name: postId, in: path, required: true, schema: { type: string, format: uuid } }]
    get:
      operationId: getPost
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
    patch:
      operationId: updatePost
      requestBody: { required: true, content: { application/merge-patch+json: { schema: { type: object, properties: { title: { type: string }, tag: { type: string, nullable: true } } } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
    delete:
      operationId: deletePost
      responses:
        '204': { description: gone }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /posts/{postId}/comments:
    parameters: [{ name: postId, in: path, required: true, schema: { type: string, format: uuid } }]
    get:
      operationId: listComments
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Comment' } } } } }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
    post:
      operationId: addComment
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Comment' } } } }
      responses:
        '201': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Comment' } } } }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /posts/{postId}/comments/{commentId}:
    parameters:
      - { name: postId, in: path, required: true, schema: { type: string, format: uuid } }
      - { name: commentId, in: path, required: true, schema: { type: integer } }
    get:
      operationId: getComment
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Comment' } } } }
        '404': { description: none, content: { application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /stats:
    get:
      operationId: getStats
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object, required: [posts], properties: { posts: { type: integer } } }, example: { posts: 42 } } } }
components:
  schemas:
    Post:
      type: object
      required: [title, author]
      properties:
        postId: { type: string, format: uuid, readOnly: true }
        title: { type: string }
        author: { type: string }
        tag: { type: string }
        createdAt: { type: string, format: date-time, readOnly: true }
        updatedAt: { type: string, format: date-time, readOnly: true }
    Comment:
      type: object
      required: [text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string }
    Problem:
      type: object
      required: [type, title, status]
      properties: { type: { type: string }, title: { type: string }, status: { type: integer }, detail: { type: string } }
`;

const dir = mkdtempSync(join(tmpdir(), 'generic-features-'));
const spec = join(dir, 'blog.yaml');
writeFileSync(spec, DOCUMENT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a foreign document with envelopes, nesting, merge patches and server-owned fields', () => {
  let mock: RunningMock;
  let client: ForeignClient;
  let compiled: CompiledContract;
  beforeAll(async () => {
    compiled = compileContract(await loadContract(spec));
    mock = await startMock({ port: 0, specPath: spec, quiet: true, log: () => {}, now: new Date('2026-11-01T12:00:00Z') });
    client = createForeignClient(mock.url, compiled);
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
  });

  it('creates with a uuid, fills readOnly fields and the times, and says where (Location)', async () => {
    const created = await client.send('POST', '/posts', { json: { title: 'Hello', author: 'ada', tag: 'news' } });
    expect(created.status).toBe(201);
    const post = created.body as Record<string, string>;
    expect(post['postId']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post).toMatchObject({ title: 'Hello', author: 'ada', tag: 'news', createdAt: '2026-11-01T12:00:00Z', updatedAt: '2026-11-01T12:00:00Z' });
    expect(created.headers['location']).toBe(`/posts/${post['postId']}`);
    expect((await client.send('GET', `/posts/${post['postId']}`)).body).toEqual(post);
  });

  it('lists in the envelope with the total, filters by a field, and pages by cursor', async () => {
    const session = { 'x-mock-session': 'paging' };
    for (const title of ['a', 'b', 'c']) await client.send('POST', '/posts', { json: { title, author: 'zed' }, headers: session });
    const byZed = await client.send('GET', '/posts', { query: { author: 'zed', limit: '2' }, headers: session });
    const page = byZed.body as { data: { title: string }[]; total: number; next_cursor?: string };
    expect(page.total).toBe(3);
    expect(page.data.map((p) => p.title)).toEqual(['a', 'b']);
    expect(page.next_cursor).toEqual(expect.any(String));
    const next = (await client.send('GET', '/posts', { query: { author: 'zed', limit: '2', cursor: page.next_cursor! }, headers: session })).body as typeof page;
    expect(next.data.map((p) => p.title)).toEqual(['c']);
    expect(next.next_cursor).toBeUndefined();
  });

  it('merges a PATCH (RFC 7396): null removes, the rest is kept, updatedAt moves', async () => {
    const post = (await client.send('POST', '/posts', { json: { title: 'Old', author: 'bo', tag: 'x' } })).body as Record<string, string>;
    const patched = await client.send('PATCH', `/posts/${post['postId']}`, { json: { title: 'New', tag: null }, headers: { 'content-type': 'application/merge-patch+json', 'x-mock-now': '2026-12-01T00:00:00Z' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ postId: post['postId'], title: 'New', author: 'bo', createdAt: post['createdAt'] });
    expect(patched.body).not.toHaveProperty('tag');
  });

  it('scopes comments to their post, and a deleted post takes its comments\' paths to the document\'s 404', async () => {
    const post = (await client.send('POST', '/posts', { json: { title: 'T', author: 'cy' } })).body as Record<string, string>;
    const other = (await client.send('POST', '/posts', { json: { title: 'U', author: 'cy' } })).body as Record<string, string>;
    const comment = (await client.send('POST', `/posts/${post['postId']}/comments`, { json: { text: 'first' } })).body as { id: number };
    expect(Number.isInteger(comment.id)).toBe(true);
    expect((await client.send('GET', `/posts/${post['postId']}/comments/${comment.id}`)).status).toBe(200);
    expect((await client.send('GET', `/posts/${other['postId']}/comments/${comment.id}`)).status).toBe(404);
    expect((await client.send('GET', `/posts/${other['postId']}/comments`)).body).toEqual([]);
    expect((await client.send('DELETE', `/posts/${post['postId']}`)).status).toBe(204);
    const gone = await client.send('GET', `/posts/${post['postId']}/comments`);
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({ status: 404 });
  });

  it('answers a stateless operation from its example, and says what it inferred', async () => {
    expect((await client.send('GET', '/stats')).body).toEqual({ posts: 42 });
    const map = (await client.send('GET', '/__mock/resources')).body as { resources: { collection: string; id: unknown; scopedBy?: string[] }[]; stateless: string[] };
    expect(map.resources.map((r) => [r.collection, r.id, r.scopedBy])).toEqual([
      ['/posts', { parameter: 'postId', field: 'postId', kind: 'uuid' }, undefined],
      ['/posts/{postId}/comments', { parameter: 'commentId', field: 'id', kind: 'integer' }, ['postId']],
    ]);
    expect(map.stateless).toEqual(['getStats']);
  });
});

describe('--fixtures DIR and --mock-overlay on a foreign document', () => {
  it('starts from <collection>.json, and an overlay makes a collection stateless', async () => {
    const fixtures = join(dir, 'fixtures');
    const overlay = join(dir, 'overlay.yaml');
    writeFileSync(overlay, "paths:\n  /posts/{postId}/comments: { x-mock-collection: false }\n");
    const { mkdirSync } = await import('node:fs');
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(join(fixtures, 'posts.json'), JSON.stringify([{ postId: '0b7e0d4e-6a0f-4f5e-9d8e-1a2b3c4d5e6f', title: 'From a fixture', author: 'fx' }]));
    const compiled = compileContract(await loadContract(spec));
    const lines: string[] = [];
    const mock = await startMock({ port: 0, specPath: spec, quiet: true, fixtures, mockOverlay: overlay, log: (line) => lines.push(line) });
    const client = createForeignClient(mock.url, compiled);
    try {
      const page = (await client.send('GET', '/posts')).body as { data: { title: string }[]; total: number };
      expect(page).toMatchObject({ total: 1, data: [{ title: 'From a fixture' }] });
      expect(lines.join('\n')).toMatch(/1 resource inferred/);
      const map = (await client.send('GET', '/__mock/resources')).body as { stateless: string[] };
      expect(map.stateless).toEqual(expect.arrayContaining(['listComments', 'addComment', 'getComment']));
    } finally {
      await client.close();
      await mock.close();
    }
  });
});
