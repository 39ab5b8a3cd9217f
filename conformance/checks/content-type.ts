import { verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/** The Content-Type is a media type the document declares for that response (RFC 9110 §8.3). */
export const contentType: CheckDefinition = {
  id: 'content-type',
  family: 'response',
  description: 'Every response body comes with a Content-Type the document declares for it.',
  writes: false,
  judge(x) {
    return verdictOf(x.diagnostics.filter((d) => d.pointer === '/header/content-type'));
  },
};
