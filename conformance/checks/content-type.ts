import { verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/** The Content-Type is a media type the document declares for that response (RFC 9110 §8.3). */
export const contentType: CheckDefinition = {
  id: 'content-type',
  family: 'response',
  description: 'Every response body comes with a Content-Type the document declares for it.',
  explain: {
    why: 'A client picks its parser from Content-Type; a JSON body labelled otherwise (or a media type the document does not list) breaks generated clients and strict parsers.',
    conformant: "`Content-Type: application/json` (or another media type the operation's response lists) on every answer with a body.",
  },
  writes: false,
  judge(x) {
    return verdictOf(x.diagnostics.filter((d) => d.pointer === '/header/content-type'));
  },
};
