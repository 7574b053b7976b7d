// Stories: a user edits the scenario, shares the link, and a colleague opening it sees the same
// numbers; a damaged or hostile link opens the page with a notice and never injects markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metric, openCalculator, runId, typeNumber, waitForRun } from './harness.mjs';

test('edit, take the link, open it in a fresh page: identical numbers', async () => {
  const first = await openCalculator();
  let hash;
  let numbers;
  try {
    const { page } = first;
    const run = await runId(page);
    await typeNumber(page, 'spot-rate-number', 0.03);
    await waitForRun(page, run);
    await typeNumber(page, 'fte-cost-number', 185000);
    await page.waitForFunction(() => location.hash.startsWith('#v=1&p=batch-vs-eks-spot@3&d='));
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
    // The debounced fragment write follows the last edit.
    await page.waitForTimeout(600);
    // "Copy link" puts the page's address, fragment included, on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(first.url).origin });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(copied.startsWith(first.url), copied);
    hash = new URL(copied).hash;
    assert.equal(hash, await page.evaluate(() => location.hash));
    numbers = await metric(page, 'monthly_tco_usd.p50');
    assert.deepEqual(first.problems, []);
  } finally {
    await first.close();
  }
  const second = await openCalculator({ hash });
  try {
    assert.deepEqual(await metric(second.page, 'monthly_tco_usd.p50'), numbers);
    assert.equal(await second.page.locator('#spot-rate-number').inputValue(), '0.03');
    assert.equal(await second.page.locator('#fte-cost-number').inputValue(), '185000');
    assert.equal(await second.page.locator('.link-notices').count(), 0);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.close();
  }
});

test('a hostile, damaged link opens the default scenario with a notice, as text', async () => {
  const hash = '#v=1&p=<img src=x onerror=window.pwned=1>@1&d=%%%';
  const app = await openCalculator({ hash });
  try {
    const { page } = app;
    const notices = await page.locator('.link-notices li').allTextContents();
    assert.ok(notices.some((n) => n.includes('unknown preset')), JSON.stringify(notices));
    assert.ok(notices.some((n) => n.includes('not base64url')), JSON.stringify(notices));
    assert.equal(await page.locator('.link-notices img').count(), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(Object.keys(await metric(page, 'monthly_tco_usd.p50')).length, 3);
    // The browser asks for the image only if markup was injected; it was not.
    assert.ok(!app.requests.some((u) => u.endsWith('/x')), app.requests.join(', '));
  } finally {
    await app.close();
  }
});

test('embed=1 shows the numbers and charts without the editor, with a link to the full calculator', async () => {
  const full = await openCalculator();
  let snippet;
  try {
    await full.page.getByRole('button', { name: 'Embed' }).click();
    snippet = await full.page.locator('#embed-snippet').inputValue();
  } finally {
    await full.close();
  }
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/tools\/gpu-cost\/#v=1&p=batch-vs-eks-spot@3&d=[A-Za-z0-9_-]+&embed=1"/);
  assert.match(snippet, /sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"/);
  const hash = snippet.match(/#[^"]+/)[0];
  const app = await openCalculator({ hash });
  try {
    const { page } = app;
    assert.equal(await page.locator('section.scenario').count(), 0);
    assert.equal(Object.keys(await metric(page, 'monthly_tco_usd.p50')).length, 3);
    assert.equal(await page.locator('figure.breakdown').count(), 1);
    const href = await page.getByRole('link', { name: 'Open the full calculator' }).getAttribute('href');
    assert.ok(!href.includes('embed=1') && href.includes('#v=1&p=batch-vs-eks-spot@3'), href);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
