/**
 * The generic engine against the corpus of published documents, the full tier's share (issue 33): every document
 * the fast tier's slice (mock/engine/corpus.e2e.test.ts, which says what is proved) leaves out.
 */
import { PUBLISHED_DOCUMENTS } from '../../fixtures/published/index.js';
import { describeCorpus } from './test-support/corpus-suite.js';
import { fastCorpusSlice } from './test-support/corpus-slice.js';

const fast = new Set(fastCorpusSlice(PUBLISHED_DOCUMENTS));
describeCorpus(PUBLISHED_DOCUMENTS.filter((document) => !fast.has(document)));
