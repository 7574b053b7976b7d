// The decision map: it renders its coarse pass, refines to 12 × 12, is stopped by a newer input
// (the older map never finishes), keeps its settings in the link, and exports as a standalone
// SVG, a PNG and a CSV of the grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openCalculator, runId, settledHash, typeNumber, waitForRun } from './harness.mjs';

const figure = 'figure.chart.decision-map';

async function mapState(page) {
  return page.locator(figure).evaluate((f) => ({
    id: Number(f.dataset.mapId), cells: Number(f.dataset.mapCells), state: f.dataset.mapState,
  }));
}

async function waitForCells(page, atLeast, newerThan = 0, timeout = 60_000) {
  await page.waitForFunction(([n, id]) => {
    const f = document.querySelector('figure.chart.decision-map');
    return f && Number(f.dataset.mapId) > id && Number(f.dataset.mapCells) >= n;
  }, [atLeast, newerThan], { timeout });
}

async function marks(page, what) {
  return page.evaluate((w) => performance.getEntriesByType('mark')
    .map((m) => m.name).filter((n) => n.startsWith(`gpucost:${w}:`)), what);
}

test('the decision map renders its coarse pass, refines, is stopped by a newer input, and is in the link', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.locator('#decision-map > summary').click();
    await waitForCells(page, 16);
    // The coarse pass shades the whole grid: every cell has a leader.
    assert.equal(await page.locator(`${figure} g[data-col]`).count(), 144);
    await page.waitForFunction(() => document.querySelector('figure.chart.decision-map')?.dataset.mapState === 'done', null, { timeout: 60_000 });
    const done = await mapState(page);
    assert.equal(done.cells, 144);
    assert.equal(await page.locator(`${figure} g[data-own="true"]`).count(), 144);
    const leaders = await page.locator(`${figure} g[data-col]`).evaluateAll((gs) => new Set(gs.map((g) => g.dataset.leader)).size);
    assert.ok(leaders >= 1);
    assert.match(await page.locator(`${figure} .map-status`).textContent(), /12 × 12 cells, 16 replications each \(the main run has 200\)/);
    assert.match(await settledHash(page), /&map=spot_interruption_rate:0:0\.2,utilization:5:150$/);

    // New axes: a new map. Once its coarse pass is in, a newer input stops it: here 2,000
    // replications, so the main run takes a second or more, in which an older map left running
    // would answer some 25 times (every 40 ms) and might finish.
    await page.locator('details.simulation-settings > summary').click();
    await page.locator('#map-x').selectOption('fte_cost');
    await waitForCells(page, 16, done.id);
    const older = await mapState(page);
    assert.notEqual(older.state, 'done', 'refining when the input comes');
    const run = await runId(page);
    await typeNumber(page, 'simulation-replications', 2000);
    await waitForRun(page, run);
    await page.waitForFunction((id) => {
      const f = document.querySelector('figure.chart.decision-map');
      return Number(f.dataset.mapId) > id && f.dataset.mapState === 'done';
    }, older.id, { timeout: 60_000 });
    const newer = await mapState(page);
    assert.ok(newer.id > older.id);
    // Counted from the stop the page sent: at most the answers already on their way.
    const answersAfter = await page.evaluate((id) => {
      const stop = performance.getEntriesByName(`gpucost:map-stop:${id}`)[0].startTime;
      return performance.getEntriesByName(`gpucost:map-answer:${id}`).filter((m) => m.startTime > stop).length;
    }, older.id);
    assert.ok(answersAfter <= 2, `${answersAfter} answers of the stopped map after its stop`);
    const full = await marks(page, 'map-full');
    assert.ok(full.includes(`gpucost:map-full:${newer.id}`), full.join());
    assert.ok(!full.includes(`gpucost:map-full:${older.id}`), 'the stopped map never finished');
    assert.match(await page.locator(`${figure} .map-status`).textContent(), /\(the main run has 2000\)/);
    const hash = await settledHash(page);
    assert.match(hash, /&map=fte_cost:0:600000,utilization:5:150$/);

    // The link opens with the same map.
    await page.goto(`${app.url}#${hash}`);
    await page.reload();
    await waitForRun(page, 0);
    assert.equal(await page.locator('#decision-map').evaluate((d) => d.open), true);
    assert.equal(await page.locator('#map-x').inputValue(), 'fte_cost');
    await waitForCells(page, 16);

    // Choosing for one axis the other's input swaps the axes; the ranges stay unfolded and
    // a reversed range is refused in words.
    await page.locator('.map-ranges > summary').click();
    await page.locator('#map-y').selectOption('fte_cost');
    assert.equal(await page.locator('#map-x').inputValue(), 'utilization');
    assert.equal(await page.locator('#map-y').inputValue(), 'fte_cost');
    assert.equal(await page.locator('.map-ranges').evaluate((d) => d.open), true);
    await typeNumber(page, 'map-y-from', 700000);
    const yFromError = page.locator('.map-ranges .field', { has: page.locator('#map-y-from') }).locator('.input-error');
    assert.match(await yFromError.textContent(), /must be a number from 0 to 600/);
    await typeNumber(page, 'map-y-to', 100000);
    await typeNumber(page, 'map-y-from', 200000);
    assert.match(await page.locator('.map-ranges').textContent(), /lower to a higher value/);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('the decision map exports as a standalone SVG, a PNG and a CSV of its grid', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.locator('#decision-map > summary').click();
    await page.waitForFunction(() => document.querySelector('figure.chart.decision-map')?.dataset.mapState === 'done', null, { timeout: 60_000 });
    const save = async (name) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('.map-export').getByRole('button', { name, exact: true }).click(),
      ]);
      return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
    };
    const svg = await save('SVG');
    assert.equal(svg.name, 'decision-map.svg');
    const text = svg.body.toString();
    assert.match(text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Opened on its own (no page styles), it draws: it parses, its cells carry their colours,
    // and it renders as an image of its stated size.
    const opened = await page.evaluate(async ([t, base64]) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      const img = new Image();
      // A data: URL, as the page's own PNG export uses (its CSP allows those for images).
      img.src = `data:image/svg+xml;base64,${base64}`;
      await img.decode();
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        cells: [...doc.querySelectorAll('rect[fill]')].filter((r) => r.getAttribute('fill').startsWith('rgb(')).length,
        classes: doc.querySelectorAll('[class]').length,
        width: img.naturalWidth,
      };
    }, [text, svg.body.toString('base64')]);
    assert.equal(opened.error, null);
    assert.equal(opened.classes, 0, 'no class is left for a stylesheet it does not have');
    assert.ok(opened.cells >= 144, `${opened.cells} coloured cells`);
    assert.ok(opened.width >= 500);
    const png = await save('PNG');
    assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const csv = (await save('CSV')).body.toString().trim().split('\n');
    assert.equal(csv.length, 145);
    assert.equal(csv[0], 'Spot interruption rate (per node-hour),Utilization (offered load) (%),leader,rival,leader_lower_share,decisive,leader_usd_per_useful_gpu_hour,replications,error');
    // The first row: the bottom-left cell's middle, 1/24 of each range in.
    assert.match(csv[1], /^0\.00833\d*,11\.04\d*,/);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
