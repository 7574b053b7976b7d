// A hosted LLM API as a platform: the self-host-vs-API preset shows the CLI's $ per million
// output tokens, TTFT, TPOT and SLO minutes on every platform and its verdict; the hosted
// platforms have their own fieldset (provider, billing, term, prices) and no instance; a
// user adds a provider, buys provisioned throughput, and the link keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cliEval, metric, openCalculator, openPreset, runId, settledHash, waitForRun,
} from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('llm-70b-api-vs-self-host: the CLI\'s figures and verdict, the APIs in their own fieldsets', async () => {
  const report = cliEval('llm-70b-api-vs-self-host');
  const app = await openPreset('llm-70b-api-vs-self-host');
  try {
    const page = app.page;
    const perToken = await metric(page, 'usd_per_million_output_tokens.p50');
    const ttft = await metric(page, 'services.0.llm.ttft_p95_ms.p50');
    const tpot = await metric(page, 'services.0.llm.tpot_p95_ms.p50');
    const slo = await metric(page, 'services.0.slo_violation_minutes.mean');
    assert.equal(report.platforms.length, 4);
    for (const p of report.platforms) {
      const s = p.services[0];
      assert.ok(close(perToken[p.name], p.usd_per_million_output_tokens.p50), `${p.name}: ${perToken[p.name]}`);
      assert.ok(close(ttft[p.name], s.llm.ttft_p95_ms.p50), p.name);
      assert.ok(close(tpot[p.name], s.llm.tpot_p95_ms.p50), p.name);
      assert.ok(close(slo[p.name], s.slo_violation_minutes.mean), p.name);
    }
    const verdict = (await page.locator('.verdict').textContent()).trim();
    assert.ok(verdict.startsWith(report.verdict), `page: ${verdict}\ncli:  ${report.verdict}`);
    // Two fieldsets of nodes (an instance each), two of APIs (billing, no instance).
    assert.equal(await page.locator('fieldset.platform.hosted-api').count(), 2);
    const azure = page.locator('fieldset.platform.hosted-api').nth(1);
    assert.match(await azure.locator('.profile').textContent(), /Azure AI Foundry, llama-3\.1-70b \(prices as of 2026-08-11\)/);
    assert.equal(await azure.locator('select[id$="-billing"]').inputValue(), 'provisioned');
    assert.equal(await azure.locator('select[id$="-term"]').inputValue(), 'one_year');
    assert.equal(await azure.locator('select[id$="-instance"]').count(), 0);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a provider added beside an LLM service, bought as provisioned throughput, kept by the link', async () => {
  const app = await openPreset('llm-70b-chat');
  try {
    const page = app.page;
    // The hosted APIs that price the service's model are offered.
    const options = await page.locator('#add-platform-profile optgroup[label="Hosted LLM APIs"] option').allTextContents();
    assert.deepEqual(options, ['Amazon Bedrock', 'Azure AI Foundry', 'Together AI', 'Fireworks AI', 'DeepInfra']);
    let run = await runId(page);
    await page.locator('#add-platform-profile').selectOption('hosted_api:azure_foundry');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitForRun(page, run);
    const fieldset = page.locator('fieldset.platform.hosted-api');
    assert.equal(await fieldset.count(), 1);
    assert.equal(await fieldset.locator('legend').textContent(), 'Azure AI Foundry');
    run = await runId(page);
    await fieldset.locator('select[id$="-billing"]').selectOption('provisioned');
    await waitForRun(page, run);
    run = await runId(page);
    await fieldset.locator('select[id$="-term"]').selectOption('one_month');
    await waitForRun(page, run);
    // 100 PTUs (the fewest) on a one-month term: $26,000 a month on the card's bill.
    const bill = await metric(page, 'breakdown_usd.api_usage');
    assert.ok(close(bill['Azure AI Foundry'], 26_000), JSON.stringify(bill));
    const hash = await settledHash(page);
    const again = await openCalculator({ hash: `#${hash}` });
    try {
      const kept = again.page.locator('fieldset.platform.hosted-api');
      assert.equal(await kept.locator('select[id$="-billing"]').inputValue(), 'provisioned');
      assert.equal(await kept.locator('select[id$="-term"]').inputValue(), 'one_month');
      assert.deepEqual(again.problems, []);
    } finally {
      await again.close();
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
