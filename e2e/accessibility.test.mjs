// Story: a keyboard or screen-reader user can use the page; axe-core (run in the page) finds
// no WCAG 2 A/AA violations: every control labelled, every image named, text contrast enough.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { openCalculator } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

async function violations(page) {
  // Evaluated through the DevTools protocol: the page's CSP (rightly) refuses injected scripts.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
}

// At desktop width in both schemes, and at a phone's 390 px, where the results come first.
for (const [scheme, width] of [['light', 1440], ['dark', 1440], ['light', 390]]) {
  test(`no accessibility violations in ${scheme} mode at ${width} px`, async () => {
    const app = await openCalculator({ width });
    try {
      await app.page.emulateMedia({ colorScheme: scheme });
      // Open every collapsible section (method panel, all settings) so it is checked too.
      await app.page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      assert.deepEqual(await violations(app.page), []);
    } finally {
      await app.close();
    }
  });
}
