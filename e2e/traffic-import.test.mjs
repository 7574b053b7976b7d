// Stories: an ML lead drops last hour's request log of their code assistant (the public Azure
// LLM trace) on the page and gets the same scenario `gpucost traffic` prints: first as a new
// service, then onto their chat service, then replayed minute by minute; a Mooncake trace with
// two bad lines lists them by line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { cli, dropFile, openCalculator, openFilesPanel, settledHash } from './harness.mjs';

const TRACE = '../shared/traces/azure_llm_inference_code_2023.csv';
const MOONCAKE = 'tests/data/requests-mooncake.jsonl';
const PRESET = 'llm-70b-chat';

test('a request trace imports as gpucost traffic prints it: new service, named, replayed', async () => {
  const app = await openCalculator({ hash: cli('link', '--preset', PRESET).trim() });
  try {
    const { page } = app;
    await openFilesPanel(page);
    await dropFile(page, 'azure_llm_inference_code_2023.csv', await readFile(TRACE, 'utf8'), 'text/csv');
    const fit = page.locator('.traffic-fit');
    await fit.waitFor();
    assert.equal(await fit.getAttribute('data-requests'), '8819');
    assert.equal(await fit.getAttribute('data-service'), 'azure_llm_inference_code_2023');
    assert.equal(await settledHash(page), cli('traffic', TRACE, '--preset', PRESET, '--link').trim());
    // Onto the preset's service: the same as --service.
    await page.locator('#traffic-service').selectOption('70B chat');
    await page.locator('.traffic-fit button.refit').click();
    await page.locator('.traffic-fit[data-service="70B chat"]').waitFor();
    assert.equal(await settledHash(page),
      cli('traffic', TRACE, '--preset', PRESET, '--service', '70B chat', '--link').trim());
    // Replayed minute by minute.
    await page.locator('#traffic-replay').check();
    await page.locator('.traffic-fit button.refit').click();
    await page.waitForFunction(() => /replayed minute by minute/.test(document.querySelector('.traffic-fit')?.textContent ?? ''));
    assert.equal(await settledHash(page),
      cli('traffic', TRACE, '--preset', PRESET, '--service', '70B chat', '--replay', '--link').trim());
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a Mooncake trace lists the lines it skipped, and is not taken for a scenario JSON', async () => {
  const app = await openCalculator({ hash: cli('link', '--preset', PRESET).trim() });
  try {
    const { page } = app;
    await openFilesPanel(page);
    await dropFile(page, 'requests-mooncake.jsonl', await readFile(MOONCAKE, 'utf8'), 'application/json');
    await page.locator('.traffic-fit').waitFor();
    assert.equal(await page.locator('.traffic-fit').getAttribute('data-format'), 'Mooncake trace (JSON lines)');
    const lines = await page.locator('.traffic-fit .bad-rows li').evaluateAll((els) => els.map((e) => Number(e.dataset.line)));
    assert.deepEqual(lines, [11, 21]);
    assert.equal(await settledHash(page), cli('traffic', MOONCAKE, '--preset', PRESET, '--link').trim());
    // A trace with one request is refused with why, and the scenario stays.
    const before = await settledHash(page);
    await dropFile(page, 'one.jsonl', '{"timestamp": 0, "input_length": 5, "output_length": 5}\n', 'application/json');
    await page.locator('.import-error').waitFor();
    assert.match(await page.locator('.import-error').textContent(), /1 usable request/);
    assert.equal(await settledHash(page), before);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
