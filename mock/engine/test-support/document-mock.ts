/**
 * A mock of a document written by a test (an object, saved as JSON in a folder of its own), with a client that checks
 * every answer against it (foreign-client.ts): the set-up the generic engine's small-document tests share.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileContract } from '../../../src/schema/index.js';
import { startMock, type MockOptions, type RunningMock } from '../../transport/server.js';
import { createForeignClient, type ForeignClient } from './foreign-client.js';

export interface DocumentMock {
  readonly mock: RunningMock;
  readonly client: ForeignClient;
  /** The document's file, for `runConformance({ specPath })`. */
  readonly file: string;
  /** Stops the client and the mock, and removes the folder. */
  close(): Promise<void>;
}

export async function startDocumentMock(document: unknown, options: Omit<MockOptions, 'specPath'> = {}): Promise<DocumentMock> {
  const work = mkdtempSync(join(tmpdir(), 'document-mock-'));
  const file = join(work, 'document.json');
  writeFileSync(file, JSON.stringify(document));
  const mock = await startMock({ port: 0, quiet: true, log: () => {}, ...options, specPath: file });
  const client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
  return {
    mock,
    client,
    file,
    async close() {
      await client.close();
      await mock.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** What GET /__mock/resources says of the documented answers once the proof sweep has gone through every operation. */
export async function sweptAnswers(served: DocumentMock): Promise<{ proved: number; operations: number; unanswerable: { operationId: string; why: string }[] }> {
  type Answers = { answers: { proved: number; operations: number; unanswerable: { operationId: string; why: string }[] } };
  let state = ((await served.client.send('GET', '/__mock/resources')).body as Answers).answers;
  for (let turn = 0; turn < 50 && state.proved < state.operations; turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = ((await served.client.send('GET', '/__mock/resources')).body as Answers).answers;
  }
  return state;
}
