/**
 * Creates that take a form (`application/x-www-form-urlencoded`), shaped as Twilio's: accounts, calls in an account,
 * recordings of a call, each collection written with `.json`. The runner made no record with a form ("takes no JSON
 * body"), so every check needing one skipped (Twilio Messaging: 248 of 680 results, 303 requests). It now sends a
 * flat form generated from the schema, and a recording's call is the one made in the account the recording's path
 * names (a `.json` collection is extended without its extension). A form field that nests an object is not sent: no
 * default encoding says how a server reads one, and the check skips saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const FORM = 'application/x-www-form-urlencoded';
const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const form = (schema: unknown): unknown => ({ required: true, content: { [FORM]: { schema } } });
const ERROR = json({ type: 'object', properties: { message: { type: 'string' } } });
const NOT_FOUND = { description: 'none', content: ERROR };
const sid = (prefix: string): unknown => ({ type: 'string', minLength: 34, maxLength: 34, pattern: `^${prefix}[0-9a-fA-F]{32}$` });
const param = (name: string, prefix: string): unknown => ({ name, in: 'path', required: true, schema: sid(prefix) });
const ACCOUNT = { type: 'object', properties: { sid: sid('AC'), friendly_name: { type: 'string' } } };
const CALL = { type: 'object', properties: { sid: sid('CA'), account_sid: sid('AC'), to: { type: 'string' }, from: { type: 'string' }, timeout: { type: 'integer' } } };
const RECORDING = { type: 'object', properties: { sid: sid('RE'), call_sid: sid('CA'), channels: { type: 'integer' }, events: { type: 'array', items: { type: 'string' } } } };
const NOTE = { type: 'object', properties: { sid: sid('NO'), text: { type: 'string' } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Forms', version: '1.0.0' },
  paths: {
    '/Accounts.json': {
      post: { operationId: 'CreateAccount', requestBody: form({ type: 'object', properties: { FriendlyName: { type: 'string' } } }), responses: { '201': { description: 'made', content: json(ACCOUNT) } } },
    },
    '/Accounts/{Sid}.json': { parameters: [param('Sid', 'AC')], get: { operationId: 'FetchAccount', responses: { '200': { description: 'one', content: json(ACCOUNT) }, '404': NOT_FOUND } } },
    '/Accounts/{AccountSid}/Calls.json': {
      parameters: [param('AccountSid', 'AC')],
      post: {
        operationId: 'CreateCall',
        requestBody: form({ type: 'object', required: ['To', 'From'], properties: { To: { type: 'string', minLength: 1, maxLength: 20 }, From: { type: 'string', minLength: 1, maxLength: 20 }, Timeout: { type: 'integer', minimum: 1, maximum: 600 } } }),
        responses: { '201': { description: 'made', content: json(CALL) }, '404': NOT_FOUND },
      },
    },
    '/Accounts/{AccountSid}/Calls/{Sid}.json': {
      parameters: [param('AccountSid', 'AC'), param('Sid', 'CA')],
      get: { operationId: 'FetchCall', responses: { '200': { description: 'one', content: json(CALL) }, '404': NOT_FOUND } },
      delete: { operationId: 'DeleteCall', responses: { '204': { description: 'gone' }, '404': NOT_FOUND } },
    },
    '/Accounts/{AccountSid}/Calls/{CallSid}/Recordings.json': {
      parameters: [param('AccountSid', 'AC'), param('CallSid', 'CA')],
      post: {
        operationId: 'CreateCallRecording',
        requestBody: form({ type: 'object', properties: { RecordingChannels: { type: 'integer', enum: [1, 2] }, RecordingStatusCallbackEvent: { type: 'array', items: { type: 'string', enum: ['in-progress', 'completed'] } } } }),
        responses: { '201': { description: 'made', content: json(RECORDING) }, '404': NOT_FOUND },
      },
    },
    '/Accounts/{AccountSid}/Calls/{CallSid}/Recordings/{Sid}.json': {
      parameters: [param('AccountSid', 'AC'), param('CallSid', 'CA'), param('Sid', 'RE')],
      get: { operationId: 'FetchCallRecording', responses: { '200': { description: 'one', content: json(RECORDING) }, '404': NOT_FOUND } },
    },
    '/Notes.json': {
      post: {
        operationId: 'CreateNote',
        requestBody: form({ type: 'object', properties: { Text: { type: 'string' }, Meta: { type: 'object', properties: { tag: { type: 'string' } } } } }),
        responses: { '201': { description: 'made', content: json(NOTE) } },
      },
    },
    '/Notes/{Sid}.json': { parameters: [param('Sid', 'NO')], get: { operationId: 'FetchNote', responses: { '200': { description: 'one', content: json(NOTE) }, '404': NOT_FOUND } } },
  },
};

describe('creates that take a form', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 1, only: ['create-read-back', 'delete-removes'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  const results = (operationId: string): string[] => report.results.filter((r) => r.operationId === operationId).map((r) => `${r.checkId} ${r.verdict}${r.reason ? `: ${r.reason}` : ''}`);

  it('makes records with forms and judges them, nothing failing', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId}: ${r.reason ?? ''}`)).toEqual([]);
    for (const operationId of ['CreateAccount', 'CreateCall', 'CreateCallRecording']) expect(results(operationId)).toContain('create-read-back passed');
    expect(results('DeleteCall')).toContain('delete-removes passed');
  });

  it('sends each create as a form, a list repeating its name, the recording under the account its call was made in', () => {
    const sent = report.results.flatMap((r) => r.evidence).filter((x) => x.request.method === 'POST');
    expect(sent.length).toBeGreaterThan(0);
    for (const x of sent) expect(x.request.headers['content-type']).toBe(FORM);
    const recordings = sent.filter((x) => x.request.url.includes('/Recordings.json') && x.response?.status === 201);
    expect(recordings.length).toBeGreaterThan(0);
    for (const recording of recordings) {
      const [, account, call] = /\/Accounts\/(AC\w+)\/Calls\/(CA\w+)\/Recordings\.json/.exec(recording.request.url)!;
      const made = sent.find((x) => x.response?.status === 201 && x.request.url.endsWith(`/Accounts/${account}/Calls.json`) && (x.response.bodyExcerpt ?? '').includes(call!));
      expect(made, `the call ${call} was made in the account ${account}`).toBeDefined();
    }
  });

  it('does not send a form whose field nests an object, and says why', () => {
    expect(results('CreateNote').every((line) => line.includes('skipped') && line.includes('field Meta nests an object'))).toBe(true);
    expect(results('CreateNote').length).toBeGreaterThan(0);
  });
});
