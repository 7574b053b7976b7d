// Story: someone opens the calculator link; the page renders cleanly from a sub-path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCalculator } from './harness.mjs';

test('the release page renders with title, slider, chart and favicon, and no errors', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    assert.equal(await page.title(), 'GPU training cost calculator');
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      'GPU training cost calculator',
    );
    // The slider is reachable by its visible label.
    const slider = page.getByLabel(/^Nodes \(p4d\.24xlarge/);
    assert.equal(await slider.getAttribute('type'), 'range');
    assert.equal(await page.locator('svg rect.bar').count(), 2);

    // The favicon is linked relative to the page and served.
    const iconHref = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(!iconHref.startsWith('/'), `favicon path should be relative: ${iconHref}`);
    const icon = await page.evaluate(async (href) => {
      const res = await fetch(href);
      return { status: res.status, type: res.headers.get('content-type') };
    }, iconHref);
    assert.deepEqual(icon, { status: 200, type: 'image/svg+xml' });

    // Every request stayed on the page's own origin and under its sub-path.
    for (const url of app.requests) {
      assert.ok(url.startsWith(app.url), `request outside the page's folder: ${url}`);
    }
    await page.screenshot({ path: 'e2e/artifacts/page-loads.png', fullPage: true });
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
