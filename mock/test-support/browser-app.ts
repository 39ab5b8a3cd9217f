/// <reference lib="dom" />
/**
 * The browser test's page entry, as a page serving the Pet Store is written: `petstore-kit/msw/browser` and the data
 * Node prepared (browserData: the document, the rule file as JSON, the seed folder's records). The entry brings the
 * engine and the rule file's behaviour module itself (issue 34).
 */
import { createBrowserMock } from '../msw/browser.js';
import { runPage } from './browser-page.js';

void runPage((data) => createBrowserMock(data));
