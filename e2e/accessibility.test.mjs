// Story: a keyboard or screen-reader user can use the page; axe-core (run in the page) finds
// no WCAG 2 A/AA violations: every control labelled, every image named, text contrast enough.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { coldPage, launchBrowser, openCalculator, serveDist, stopServer, SUB_PATH } from './harness.mjs';

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

// The loading shell with its first results (and a notice about the link), the page's own
// module held back so that the shell stays.
test('no accessibility violations in the loading shell with its first results', async () => {
  const server = await serveDist(process.env.DIST ?? 'dist', { hold: /^gpucost-app-/ });
  const browser = await launchBrowser();
  try {
    for (const [scheme, width] of [['light', 1440], ['dark', 1440], ['light', 390]]) {
      const { page } = await coldPage(browser, { viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}#v=1&p=no-such-preset`);
      await page.waitForSelector('[data-first-number] .link-notices', { timeout: 60_000 });
      assert.deepEqual(await violations(page), [], `${scheme} at ${width} px`);
      await page.context().close();
    }
  } finally {
    server.release();
    await browser.close();
    await stopServer(server);
  }
});
