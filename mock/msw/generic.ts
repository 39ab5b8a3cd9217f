/**
 * `petstore-kit/msw/generic`: the generic engine (issue 22), which serves any OpenAPI document that is not the Pet
 * Store, for `createBrowserMock(data, { genericEngine })` of `petstore-kit/msw/browser`. A separate entry because it
 * brings faker's English data: a page that mocks only the Pet Store does not load it (issue 23, point 3).
 */
export { createGenericEngine as genericEngine } from '../engine/engine.js';
