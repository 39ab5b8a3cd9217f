/// <reference lib="dom" />
/**
 * The browser test's page entry for the Pet Store's own engine: `petstore-kit/msw/browser` alone, as a page that
 * mocks the Pet Store imports it (browser-page.ts runs the calls).
 */
import { createBrowserMock } from '../msw-browser.js';
import { runPage } from './browser-page.js';

void runPage((data) => createBrowserMock(data));
