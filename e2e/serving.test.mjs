// Stories: a team serving an agent API opens the spike preset and reads each platform's cost
// per million requests and minutes over the latency objective, as `gpucost eval` computes
// them; on a fixed number of replicas, twice the traffic costs half as much per request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openPreset, runId, typeNumber, waitForRun } from './harness.mjs';

const PRESET = 'agent-traffic-spike';


for (const preset of [PRESET, 'spiky-low-traffic']) {
  test(`${preset}: the page shows per service the numbers gpucost eval computes`, async () => {
    const app = await openPreset(preset);
    try {
      const { page } = app;
      const cli = cliEval(preset);
      const perMillion = await metric(page, 'services.0.usd_per_million_requests.p50');
      const slo = await metric(page, 'services.0.slo_violation_minutes.mean');
      const p95 = await metric(page, 'services.0.latency_p95_ms.p50');
      for (const p of cli.platforms) {
        const s = p.services[0];
        assert.ok(Math.abs(perMillion[p.name] - s.usd_per_million_requests.p50) <= 1e-9 * perMillion[p.name], `${p.name}: $/M`);
        assert.equal(slo[p.name], s.slo_violation_minutes.mean, `${p.name}: SLO minutes`);
        assert.equal(p95[p.name], s.latency_p95_ms.p50, `${p.name}: p95`);
      }
      if (preset === PRESET) {
        // The longer start-up (SageMaker's alarm and node) misses the objective longer.
        assert.ok(slo['SageMaker endpoint'] > slo['EKS + Karpenter'], JSON.stringify(slo));
      } else {
        // Scaled to zero, Cloud Run costs least per request and pays with cold starts.
        const [run, ...others] = cli.platforms.map((p) => p.services[0]);
        for (const o of others) {
          assert.ok(run.usd_per_million_requests.p50 < o.usd_per_million_requests.p50, JSON.stringify(perMillion));
          assert.ok(run.slo_violation_minutes.mean > o.slo_violation_minutes.mean, JSON.stringify(slo));
        }
      }
      assert.deepEqual(app.problems, []);
    } finally {
      await app.close();
    }
  });
}

test('the day chart shows each platform catching up with the spike, SageMaker last', async () => {
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    const panels = page.locator('figure.service-day g.day-panel');
    assert.equal(await panels.count(), 3);
    const missed = {};
    for (const title of await page.locator('figure.service-day text.panel-title').allTextContents()) {
      const [, name, minutes] = title.match(/^(.*) · (\d+) min over the objective$/);
      missed[name] = Number(minutes);
    }
    // Replication 0's spike day: the longer scale-up delay misses longer.
    assert.ok(missed['SageMaker endpoint'] > missed['EKS + Karpenter'], JSON.stringify(missed));
    assert.ok(missed['EKS + Karpenter'] > 0, JSON.stringify(missed));
    // The whole day, then back: the same minutes missed (the spike's hours hold them all).
    await page.locator('#service-day-window').selectOption('day');
    const whole = await page.locator('figure.service-day text.panel-title').first().textContent();
    assert.ok(whole.endsWith(`${missed['SageMaker endpoint']} min over the objective`), whole);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('on fixed replicas, doubling the traffic on its slider halves the cost per million requests', async () => {
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    // Four replicas always (most, then fewest), no spikes: the cost no longer follows traffic.
    await page.locator('fieldset.service details.all-settings > summary').click();
    for (const [id, value] of [['service-0-setting-4', 4], ['service-0-setting-3', 4], ['service-more-0-setting-1', 0]]) {
      const before = await runId(page);
      await typeNumber(page, id, value);
      await waitForRun(page, before, 300_000);
    }
    // By hand: a month's TCO over the horizon's requests, 30 days of 730-hour months.
    const months = (30 * 24) / 730;
    const perMillionAt = async (rps) => {
      // The traffic slider, dragged as a hand does: its value moves, then an input event.
      const before = await runId(page);
      await page.locator('#traffic').evaluate((slider, v) => {
        slider.value = String(v);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }, rps);
      await waitForRun(page, before, 300_000);
      assert.equal(await page.locator('#service-0-setting-0').inputValue(), String(rps));
      const tco = await metric(page, 'monthly_tco_usd.p50');
      const shown = await metric(page, 'services.0.usd_per_million_requests.p50');
      for (const [name, usd] of Object.entries(tco)) {
        const byHand = (usd * months) / (rps * 30 * 86_400) * 1e6;
        assert.ok(Math.abs(shown[name] - byHand) <= 0.005 * byHand, `${rps} req/s on ${name}: ${shown[name]} vs ${byHand}`);
      }
      return shown;
    };
    const at5 = await perMillionAt(5);
    const at10 = await perMillionAt(10);
    for (const name of Object.keys(at5)) {
      assert.ok(Math.abs(at10[name] / at5[name] - 0.5) < 0.005, `${name}: ${at5[name]} → ${at10[name]}`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a Cloud Run platform added to the spike preset runs the service on its own instances, and a service that may scale to zero is told where it cannot', async () => {
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    const run = await runId(page);
    await page.locator('#add-platform-profile').selectOption('cloud_run');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitForRun(page, run, 300_000);
    const fieldset = page.locator('fieldset.platform').nth(3);
    assert.equal(await fieldset.locator('legend').textContent(), 'Cloud Run (GPU)');
    // Only Cloud Run's own instance is offered, at its hourly price.
    const options = await fieldset.locator('select[id$="-instance"] option').allTextContents();
    assert.deepEqual(options.map((o) => o.split(' — ')[0]), ['cloud-run-l4']);
    const perMillion = await metric(page, 'services.0.usd_per_million_requests.p50');
    assert.ok(perMillion['Cloud Run (GPU)'] > 0, JSON.stringify(perMillion));
    // Cloud Run's ten instances bound the service's replicas there, and the fieldset says so.
    const cap = 'Agent API runs at most 10 replicas on Cloud Run (GPU): its node limit is 10 nodes of 1 GPUs (max_nodes)';
    assert.deepEqual(await page.locator('fieldset.service .notice').allTextContents(), [cap]);
    // Fewest replicas 0: Cloud Run may scale to zero, the others keep one, and say so.
    const before = await runId(page);
    await typeNumber(page, 'service-0-setting-3', 0);
    await waitForRun(page, before, 300_000);
    const notices = await page.locator('fieldset.service .notice').allTextContents();
    assert.deepEqual(notices, [cap, 'Agent API keeps 1 replica on SageMaker endpoint, EKS + Karpenter, GKE Standard: the platform cannot scale to zero (its serving.scale_to_zero is off)']);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('train-sagemaker-serve-eks: the page prices training on one platform and serving on the other, as gpucost eval does', async () => {
  const app = await openPreset('train-sagemaker-serve-eks');
  try {
    const { page } = app;
    const cli = cliEval('train-sagemaker-serve-eks');
    const shown = await page.locator('[data-metric="split.monthly_tco_usd.p50"]').evaluateAll((els) =>
      els.map((e) => [e.dataset.trains, e.dataset.serves, Number(e.dataset.value)]));
    assert.equal(shown.length, 2);
    for (const [trains, serves, value] of shown) {
      const split = cli.split.find((x) => x.trains_on === trains && x.serves_on === serves);
      assert.ok(Math.abs(value - split.monthly_tco_usd.p50) <= 1e-9 * value, `${trains} → ${serves}`);
    }
    // A split runs two systems: it pays both platforms' people, more than either alone here.
    const tco = await metric(page, 'monthly_tco_usd.p50');
    for (const [, , value] of shown) assert.ok(value > Math.min(...Object.values(tco)), JSON.stringify({ shown, tco }));
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
