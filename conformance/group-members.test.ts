/**
 * OpenAI's organization groups, cut down: `POST /groups/{group_id}/users {user_id}` adds a user to a group, read back
 * at `/groups/{group_id}/users/{user_id}` as `{id, name}`; `POST /users/{user_id}/roles` gives an organization user a
 * role. Two false findings of the kit against its own mock on OpenAI's published document, unseen before:
 * - the mock kept the membership under an id of its own (`57`), so the user's read and delete at its `user_id` were 404
 *   (it now keys a record by the body member the item path parameter names, where the record has no member so named);
 * - the runner took the user of `/users/{user_id}/roles` from the group membership it had made, by the name `user_id`
 *   alone, and failed the create's 404: its own input explains that refusal, so the check now skips, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = json({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } });
const NOT_FOUND = { description: 'none', content: ERROR };
const GROUP = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string', minLength: 1, maxLength: 40 } } };
const MEMBER = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
const ASSIGNMENT = { type: 'object', required: ['user_id', 'group_id'], properties: { object: { type: 'string', enum: ['group.user'] }, user_id: { type: 'string' }, group_id: { type: 'string' } } };
const ROLE = { type: 'object', required: ['id', 'role_id'], properties: { id: { type: 'string' }, role_id: { type: 'string' } } };
const path = (name: string): unknown => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Groups', version: '1.0.0' },
  paths: {
    '/groups': {
      get: { operationId: 'list-groups', responses: { '200': { description: 'groups', content: json({ type: 'object', properties: { data: { type: 'array', items: GROUP } } }) } } },
      post: { operationId: 'create-group', requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 40 } } }) }, responses: { '200': { description: 'made', content: json(GROUP) } } },
    },
    '/groups/{group_id}': { parameters: [path('group_id')], get: { operationId: 'retrieve-group', responses: { '200': { description: 'a group', content: json(GROUP) }, '404': NOT_FOUND } } },
    '/groups/{group_id}/users': {
      parameters: [path('group_id')],
      get: { operationId: 'list-group-users', responses: { '200': { description: 'members', content: json({ type: 'object', properties: { data: { type: 'array', items: MEMBER } } }) }, '404': NOT_FOUND } },
      post: { operationId: 'add-group-user', requestBody: { required: true, content: json({ type: 'object', required: ['user_id'], properties: { user_id: { type: 'string' } } }) }, responses: { '200': { description: 'added', content: json(ASSIGNMENT) }, '404': NOT_FOUND } },
    },
    '/groups/{group_id}/users/{user_id}': {
      parameters: [path('group_id'), path('user_id')],
      get: { operationId: 'retrieve-group-user', responses: { '200': { description: 'a member', content: json(MEMBER) }, '404': NOT_FOUND } },
      delete: { operationId: 'remove-group-user', responses: { '200': { description: 'removed', content: json({ type: 'object', properties: { deleted: { type: 'boolean' } } }) }, '404': NOT_FOUND } },
    },
    '/users': { get: { operationId: 'list-users', responses: { '200': { description: 'users', content: json({ type: 'object', properties: { data: { type: 'array', items: MEMBER } } }) } } } },
    '/users/{user_id}': { parameters: [path('user_id')], get: { operationId: 'retrieve-user', responses: { '200': { description: 'a user', content: json(MEMBER) }, '404': NOT_FOUND } } },
    '/users/{user_id}/roles': {
      parameters: [path('user_id')],
      post: { operationId: 'assign-user-role', requestBody: { required: true, content: json({ type: 'object', required: ['role_id'], properties: { role_id: { type: 'string' } } }) }, responses: { '200': { description: 'assigned', content: json(ROLE) }, '404': NOT_FOUND } },
    },
    '/users/{user_id}/roles/{role_id}': {
      parameters: [path('user_id'), path('role_id')],
      delete: { operationId: 'unassign-user-role', responses: { '200': { description: 'unassigned', content: json({ type: 'object', properties: { deleted: { type: 'boolean' } } }) }, '404': NOT_FOUND } },
    },
  },
};

describe("a membership named by its body's user_id, and a user taken by its name alone", () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 1, only: ['create-read-back', 'delete-removes'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('the mock keeps a membership under the user_id it was sent: read and deleted there', async () => {
    const group = (await (await fetch(`${served.mock.url}/groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ops"}' })).json()) as { id: string };
    const added = await fetch(`${served.mock.url}/groups/${group.id}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user_id":"user_abc123"}' });
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({ user_id: 'user_abc123' });
    const read = await fetch(`${served.mock.url}/groups/${group.id}/users/user_abc123`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: 'user_abc123' });
    expect((await fetch(`${served.mock.url}/groups/${group.id}/users/user_abc123`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${served.mock.url}/groups/${group.id}/users/user_abc123`)).status).toBe(404);
  });

  it('the runner finds no defect: the membership reads back and deletes, the role assignment under a guessed user skips', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId}: ${r.reason ?? ''}`)).toEqual([]);
    expect(report.results.filter((r) => r.operationId === 'add-group-user' && r.checkId === 'create-read-back').map((r) => r.verdict)).toContain('passed');
    const assign = report.results.filter((r) => r.operationId === 'assign-user-role' && r.checkId === 'create-read-back');
    expect(assign.length).toBeGreaterThan(0);
    for (const result of assign) expect(`${result.verdict}: ${result.reason ?? ''}`).toMatch(/^skipped: .*taken by its name alone/);
  });
});
