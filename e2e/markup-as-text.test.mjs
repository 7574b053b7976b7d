// Story: a scenario file, a job history and a link carry hostile text (names, CSV cells, link
// parts); the page shows it as text everywhere — legends, cards, charts, notes, notices — and
// never runs or loads anything from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, dropFile, metric, openCalculator, openFilesPanel, runId, waitForRun } from './harness.mjs';

const PAYLOAD = '<img src=x onerror="window.pwned=1">';

/** No element the payloads could have created, nothing run, nothing fetched. */
async function assertInert(app) {
  const { page } = app;
  assert.equal(await page.locator('img[src="x"], script:not([src]), [onerror]').count(), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.ok(!app.requests.some((u) => /\/x$/.test(u)), app.requests.join(', '));
}

test('names from a scenario file and cells from a job history are shown as text', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const scenario = JSON.parse(cli('scenario', '--preset', 'batch-vs-eks-spot'));
    scenario.platforms[0].name = PAYLOAD;
    scenario.job_classes[0].name = `${PAYLOAD} jobs`;
    let run = await runId(page);
    await dropFile(page, 'hostile.json', JSON.stringify(scenario), 'application/json');
    await waitForRun(page, run);
    assert.ok(Object.keys(await metric(page, 'monthly_tco_usd.p50')).includes(PAYLOAD));
    assert.ok((await page.locator('fieldset.platform legend').allTextContents()).includes(PAYLOAD));
    assert.ok((await page.locator('fieldset.job-class legend').allTextContents()).includes(`${PAYLOAD} jobs`));
    await assertInert(app);

    const csv = [
      'submit_time,duration_h,gpus,gpu_model,outcome',
      `2025-01-01T09:00:00Z,1,8,"${PAYLOAD.replaceAll('"', '""')}",completed`,
      '2025-01-02T10:00:00Z,2,8,A100,completed',
      `2025-01-03T11:00:00Z,${PAYLOAD.replaceAll('"', '')},8,A100,completed`,
    ].join('\n');
    run = await runId(page);
    await dropFile(page, 'history.csv', csv, 'text/csv');
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, run);
    const notes = (await page.locator('.fit-notes').textContent()) + (await page.locator('.bad-rows').textContent());
    assert.ok(notes.includes('<img src=x'), notes);
    await assertInert(app);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('markup typed into the text fields (saved name, Compare links) is shown as text', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    // A saved scenario's name, in the notice and in the list, then after a reload.
    await openFilesPanel(page);
    await page.locator('#save-name').fill(PAYLOAD);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Saved "${PAYLOAD}".`).waitFor();
    await assertInert(app);
    await page.waitForLoadState('networkidle');
    await page.reload();
    await waitForRun(page, 0);
    await openFilesPanel(page);
    await page.locator('.scenario-files').getByText(PAYLOAD).first().waitFor();
    await assertInert(app);
    // Compare: the payload as a link, and a link whose scenario carries it as a platform name.
    const link = cli('link', '--preset', 'batch-vs-eks-spot', '--set', `platforms.1.name=${PAYLOAD}`).trim();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.locator('#compare-a').fill(PAYLOAD);
    await page.locator('#compare-b').fill(`https://example.org/calc/${link.startsWith('#') ? '' : '#'}${link}`);
    await page.locator('.compare-panel').getByRole('button', { name: 'Compare', exact: true }).click();
    await page.locator('.compare-panel').getByText(PAYLOAD).first().waitFor();
    await assertInert(app);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
