/// <reference lib="dom" />
/**
 * The browser test's page entry for the Pet Store on the generic engine (issue 34):
 * the engine from `petstore-kit/msw/generic` and the rule file's behaviour module imported into the bundle, as a
 * page serving the Pet Store that way does; the rule file itself comes in the data as JSON (browserData).
 */
import petStoreBehaviour from '../../fixtures/rules/petstore.behaviour.mjs';
import { createBrowserMock } from '../msw/browser.js';
import { genericEngine } from '../msw/generic.js';
import { runPage } from './browser-page.js';

void runPage((data) => createBrowserMock(data, { genericEngine, behaviour: petStoreBehaviour }));
