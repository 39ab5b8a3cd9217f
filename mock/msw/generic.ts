/**
 * `petstore-kit/msw/generic`: the engine alone, for pages written as `createBrowserMock(data, { genericEngine })`
 * before the engine was one (issue 34). `petstore-kit/msw/browser` brings it itself now, for every document.
 */
export { createGenericEngine as genericEngine } from '../engine/engine.js';
