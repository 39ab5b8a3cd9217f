/**
 * Issue 10, point 3: the HTML report read in a real browser. Headless
 * Chromium (Debian's `chromium` package, never a downloaded build) driven by
 * playwright-core renders the report; the verdict banner's text colour is
 * measured against its background (WCAG 2.x contrast ratio, at least 4.5:1
 * for normal text, success criterion 1.4.3), in light and dark colour
 * schemes, since the banner was once green on green. A screenshot of each is
 * kept under reports/browser/ (gitignored) as a test artifact.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../model.js';
import { createReporter } from './index.js';
import { reportAround } from '../test-support/report-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../reports/browser/', import.meta.url));
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`html.browser.test.ts skipped: ${CHROMIUM} is missing (install Debian's chromium package: apt-get install -y chromium; .ci/run does).`);

/** WCAG 2.x relative luminance of an sRGB colour. */
function luminance([r, g, b]: readonly number[]): number {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
}

export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `rgb(26, 127, 55)` or `rgba(…, 1)` → [26, 127, 55]; a translucent colour is refused, since its contrast depends on what is behind it. */
function rgb(css: string): number[] {
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  if (m[4] !== undefined && Number(m[4]) < 1) throw new Error(`translucent colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The little of the DOM the test reads in the page (the kit's TypeScript has no DOM library). */
interface StyledElement {
  readonly ownerDocument: { readonly defaultView: { getComputedStyle(element: StyledElement): { readonly color: string; readonly backgroundColor: string } } | null };
}

function reportWith(results: CheckResult[]): RunReport {
  return reportAround(results, [
    { id: 'status-documented', family: 'response' },
    { id: 'no-server-error', family: 'errors' },
  ]);
}

const pass: CheckResult = { checkId: 'status-documented', operationId: 'createPet', title: 'createPet: 3 exchanges judged', verdict: 'passed', findings: [], evidence: [] };
const fail = (checkId: string): CheckResult => ({
  checkId,
  operationId: 'createPet',
  title: 'POST /pets → 200',
  verdict: 'failed',
  reason: checkId === 'no-server-error' ? 'POST /pets answered 500' : 'status 200 is not documented for createPet',
  findings: [],
  evidence: [
    {
      request: { method: 'POST', url: 'http://127.0.0.1:4010/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
      response: { status: 200, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"id":21}', bodyBytes: 9, truncated: false },
      durationMs: 3,
    },
  ],
});

describe.skipIf(!hasChromium)('the HTML report in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const cases = [
    { name: 'passed', report: reportWith([pass]) },
    { name: 'failed', report: reportWith([pass, fail('status-documented'), fail('no-server-error')]) },
  ] as const;

  for (const { name, report } of cases) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`a ${name} run's verdict banner is readable in the ${scheme} scheme (contrast >= 4.5:1), and a screenshot is kept`, { timeout: 60_000 }, async () => {
        const page = await browser.newPage({ colorScheme: scheme, viewport: { width: 1200, height: 900 } });
        try {
          await page.setContent(createReporter('html').render(report), { waitUntil: 'load' });
          const banner = page.locator('#verdict');
          await expect(banner.textContent()).resolves.toMatch(name === 'failed' ? /^FAILED: 2 defects/ : /^PASSED: 0 defects/);
          const colors = await banner.evaluate((el: StyledElement) => {
            const style = el.ownerDocument.defaultView?.getComputedStyle(el);
            return { color: style?.color ?? '', background: style?.backgroundColor ?? '' };
          });
          const ratio = contrastRatio(rgb(colors.color), rgb(colors.background));
          expect(ratio, `${colors.color} on ${colors.background}`).toBeGreaterThanOrEqual(4.5);
          if (name === 'failed') {
            // The fix-first list: one line per defect, the server error (critical) before the undocumented status (high).
            await expect(page.locator('ol.fix-first li').allTextContents()).resolves.toEqual([
              expect.stringMatching(/^critical no-server-error on createPet/),
              expect.stringMatching(/^high status-documented on createPet/),
            ]);
            // Details are folded: the curl is in the page but not shown until opened.
            await expect(page.locator('#defect-1 pre').last().isVisible()).resolves.toBe(false);
            await page.locator('#defect-1 summary').click();
            await expect(page.locator('#defect-1 pre').last().textContent()).resolves.toMatch(/^curl -i -X POST/);
          }
          await page.screenshot({ path: `${ARTIFACTS}html-report-${name}-${scheme}.png`, fullPage: true });
          expect(existsSync(`${ARTIFACTS}html-report-${name}-${scheme}.png`)).toBe(true);
        } finally {
          await page.close();
        }
      });
    }
  }

  it('the contrast formula gives the WCAG reference values', () => {
    expect(contrastRatio([255, 255, 255], [0, 0, 0])).toBeCloseTo(21, 5);
    expect(contrastRatio([26, 127, 55], [26, 127, 55])).toBe(1);
  });
});
