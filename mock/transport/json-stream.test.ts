import { describe, expect, it } from 'vitest';
import { isLargeBody, jsonPieces, STREAM_THRESHOLD } from './json-stream.js';
import { generateSnapshot } from '../behaviour/petstore/seed.js';

describe('jsonPieces', () => {
  it.each([
    ['an exported state', async () => await generateSnapshot(7, 12_000)],
    ['fields JSON cannot hold, nested values and an empty object', () => ({ a: undefined, b: [1, undefined, { c: [null] }], d: 'x"y', e: {}, f: () => 1 })],
    ['no fields', () => ({})],
    ['an array of 2,500 items, cut into pieces', () => ({ items: Array.from({ length: 2_500 }, (_, i) => ({ i })) })],
  ])('writes %s byte for byte as JSON.stringify does', async (_label, make) => {
    const body = (await make()) as Readonly<Record<string, unknown>>;
    const pieces = [...jsonPieces(body)];
    expect(pieces.join('')).toBe(JSON.stringify(body));
  });

  it('streams only bodies whose arrays hold more than the threshold', async () => {
    expect(isLargeBody(await generateSnapshot(7, STREAM_THRESHOLD))).toBe(true);
    expect(isLargeBody({ pets: [], orders: [] })).toBe(false);
    expect(isLargeBody(Array.from({ length: STREAM_THRESHOLD + 1 }))).toBe(false);
  });
});
