// Cross-browser smoke suite: the release page in Firefox ESR and WebKitGTK, through WebDriver
// (e2e/engines/webdriver.mjs). The Chromium suite (e2e/*.test.mjs) is the full one; this one
// checks, in each other engine, what differs between engines:
// - the default page and two presets show the CLI's numbers, to the last bit;
// - a number typed into a field gives a new run that settles on the CLI's numbers;
// - the run goes in the Web Workers, and the single file (no worker from file://) runs it on
//   the main thread instead;
// - an LLM service's $ per million output tokens, TTFT and TPOT are the CLI's, and its
//   model's fields fit 390 px;
// - a request trace dropped on the import gives the scenario `gpucost traffic` prints;
// - a 390 px page does not scroll sideways (checked in a 390 px iframe: a window cannot be
//   made that narrow everywhere);
// - no window `error` event fires;
// - the loading shell shows the coarse pass's numbers before the page's module arrives, and
//   fits 390 px;
// - "Tune each platform" gives the CLI's tuned figures, and its report fits 390 px.
// Run: `ENGINES=firefox,webkit DIST=dist SINGLE_FILE=... node --test e2e/engines/smoke.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSingleFile } from '../../scripts/make-single-file.mjs';
import { cli, serveDist, stopServer, SUB_PATH } from '../harness.mjs';
import { startSession } from './webdriver.mjs';

const engines = (process.env.ENGINES ?? 'firefox,webkit').split(',').filter(Boolean);
const SHOTS = process.env.SHOTS;
/** Puts the page at its current link in a 390 px iframe (the first iframe of the page). */
const OPEN_FRAME = `
  const f = document.createElement('iframe');
  f.style.cssText = 'width:390px;height:800px;border:0';
  f.src = location.href;
  document.body.prepend(f);`;
/** Once the frame's run is done: how far it scrolls sideways, the first elements wider than
 * it, and its window error events; the frame is removed. Null while the run goes on. */
const NARROW_READ = `
  const f = document.querySelector('iframe');
  const r = f?.contentDocument?.querySelector('section.results');
  if (!r || r.dataset.state !== 'done' || !(Number(r.dataset.run) > 0)) return null;
  const d = f.contentDocument.documentElement;
  const wide = [...d.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > d.clientWidth + 1)
    .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className);
  const errors = f.contentWindow.__errorEvents ?? null;
  f.remove();
  return { overflow: d.scrollWidth - d.clientWidth, wide, errors };`;

/**
 * Runs `script` (a synchronous function body) in the page every 250 ms until it returns
 * something other than null; resolves to that. Each call is short: a WebDriver's script
 * timeout (30 s) bounds one call, and a slow machine may take minutes for a tune.
 */
async function until(s, what, script, args = [], timeoutMs = 300_000) {
  const start = Date.now();
  let last = null;
  for (;;) {
    const found = await s.run(script, ...args).catch((e) => { last = e; return null; });
    if (found != null) return found;
    if (Date.now() - start > timeoutMs) {
      throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The page in a 390 px frame, once its run is done: see NARROW_READ. */
async function narrowFrame(s, what) {
  await s.run(OPEN_FRAME);
  return until(s, `${what} at 390 px`, NARROW_READ);
}

/**
 * The results section's run number, state and every headline number, by metric and platform.
 * The numbers travel as their `data-value` text (shortest round-trip digits) and are read in
 * Node: a WebDriver's JSON may carry a double to fewer digits (geckodriver sends 16).
 */
const READ = `
  const r = document.querySelector('section.results');
  const values = {};
  for (const e of document.querySelectorAll('.card [data-metric]')) {
    (values[e.dataset.metric] ??= {})[e.dataset.platform] = e.dataset.value;
  }
  return r && { run: Number(r.dataset.run), state: r.dataset.state, values,
    note: document.querySelector('.runner-note')?.textContent ?? '',
    errors: window.__errorEvents ?? null };`;

/** The first service's LLM figures on the page, by metric and platform, as their text. */
const LLM_READ = `
  const values = {};
  for (const e of document.querySelectorAll('[data-metric^="services.0.llm."]')) {
    (values[e.dataset.metric] ??= {})[e.dataset.platform] = e.dataset.value;
  }
  return values;`;

/** Polls the page until its run is newer than `after` and done; resolves to what READ reads. */
async function settled(s, after, timeoutMs = 120_000) {
  const start = Date.now();
  for (;;) {
    const now = await s.run(READ).catch(() => null);
    if (now && now.run > after && now.state === 'done') return now;
    if (Date.now() - start > timeoutMs) throw new Error(`no finished run after ${after}: ${JSON.stringify(now)?.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The page's headline numbers equal the CLI's report for the same scenario, bit for bit. */
function sameAsCli(shown, report, what) {
  for (const p of report.platforms) {
    assert.equal(Number(shown.values['monthly_tco_usd.p50']?.[p.name]), p.monthly_tco_usd.p50, `${what}: ${p.name} TCO`);
    const perHour = p.usd_per_useful_gpu_hour?.p50;
    if (perHour !== undefined) {
      assert.equal(Number(shown.values['usd_per_useful_gpu_hour.p50']?.[p.name]), perHour, `${what}: ${p.name} $/GPU-h`);
    }
  }
}

/** In the page (argument false) or its 390 px frame (true): once its run is done, clicks
 * "Tune each platform" and returns true; null before. */
const TUNE_START = `
  const doc = arguments[0] ? document.querySelector('iframe')?.contentDocument : document;
  const r = doc?.querySelector('section.results');
  const start = doc?.querySelector('[data-tune-start]');
  if (!r || r.dataset.state !== 'done' || !(Number(r.dataset.run) > 0) || !start) return null;
  start.click();
  return true;`;
/** Once the tune has ended (done, or stopped or refused: the test says which): each
 * platform's as-typed and tuned means as their text, the fair verdict, the page's sideways
 * scroll and its window error events. Null while it runs. */
const TUNE_READ = `
  const doc = arguments[0] ? document.querySelector('iframe').contentDocument : document;
  const panel = doc.querySelector('.tune-panel');
  if (!panel || panel.dataset.tune === 'running' || panel.dataset.tune === 'idle') return null;
  panel.scrollIntoView();
  const d = doc.documentElement;
  return { state: panel.dataset.tune,
    platforms: [...doc.querySelectorAll('[data-tune-platform]')].map((e) => [e.dataset.tunePlatform, e.dataset.asTyped, e.dataset.tuned]),
    fair: doc.querySelector('[data-tune-fair]')?.textContent ?? '',
    overflow: d.scrollWidth - d.clientWidth,
    errors: arguments[0] ? document.querySelector('iframe').contentWindow.__errorEvents ?? null : null };`;

/** Tunes the page (or its frame) and resolves to what TUNE_READ reads. */
async function tune(s, what, inFrame) {
  await until(s, `${what}: a finished run to tune`, TUNE_START, [inFrame]);
  return until(s, `${what}: the tune`, TUNE_READ, [inFrame]);
}

for (const engine of engines) {
  test(`${engine}: the page shows the CLI's numbers, settles after an input, runs in workers and fits 390 px`, async () => {
    const server = await serveDist(process.env.DIST ?? 'dist', { watchErrors: true });
    const url = `http://127.0.0.1:${server.address().port}${SUB_PATH}`;
    const s = await startSession(engine);
    try {
      await s.size(1280, 900);
      await s.go(url);
      // The default page: the CLI's numbers, in the workers.
      let shown = await settled(s, 0);
      sameAsCli(shown, JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot')), 'default');
      assert.match(shown.note, /^Simulated in (a|\d+) background workers?\.$/);
      // Two presets, chosen as a user would.
      for (const preset of ['six-small-jobs', 'multi-team-cluster', 'h100-six-clouds']) {
        await s.run(`const el = document.getElementById('preset'); el.value = arguments[0];
          el.dispatchEvent(new Event('change', { bubbles: true }));`, preset);
        shown = await settled(s, shown.run);
        sameAsCli(shown, JSON.parse(cli('eval', '--preset', preset)), preset);
      }
      // Six platforms at 390 px: their cards in a row that scrolls, the page not sideways.
      const six = await narrowFrame(s, `${engine}: six platforms`);
      assert.equal(six.overflow, 0, `${engine}: six platforms at 390 px scroll sideways: ${JSON.stringify(six.wide)}`);
      assert.deepEqual(six.errors, [], `${engine}: six platforms at 390 px: window error events`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-six-1280.png`), await s.screenshot());
      // An LLM service: its $ per million output tokens, TTFT and TPOT p95 are the CLI's, and
      // the page with its model's fields fits 390 px.
      await s.run(`const el = document.getElementById('preset'); el.value = 'llm-70b-chat';
        el.dispatchEvent(new Event('change', { bubbles: true }));`);
      shown = await settled(s, shown.run);
      const llmReport = JSON.parse(cli('eval', '--preset', 'llm-70b-chat'));
      const llm = await s.run(LLM_READ);
      for (const p of llmReport.platforms) {
        for (const key of ['usd_per_million_output_tokens', 'ttft_p95_ms', 'tpot_p95_ms']) {
          assert.equal(Number(llm[`services.0.llm.${key}.p50`]?.[p.name]), p.services[0].llm[key].p50,
            `${engine}: llm-70b-chat ${p.name} ${key}`);
        }
      }
      assert.equal(await s.run(`return document.getElementById('service-0-llm-model')?.value ?? null;`), 'llama-3.1-70b');
      const llmNarrow = await narrowFrame(s, `${engine}: an LLM service`);
      assert.equal(llmNarrow.overflow, 0, `${engine}: an LLM service at 390 px scrolls sideways: ${JSON.stringify(llmNarrow.wide)}`);
      assert.deepEqual(llmNarrow.errors, [], `${engine}: an LLM service at 390 px: window error events`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-llm-1280.png`), await s.screenshot());
      // A request trace dropped on the import (Mooncake's JSON lines, which open with `{` as a
      // scenario does): the scenario `gpucost traffic` prints, with its two skipped lines.
      const trace = 'tests/data/requests-mooncake.jsonl';
      await s.run(`document.querySelector('details.scenario-files > summary').click();
        const dt = new DataTransfer();
        dt.items.add(new File([arguments[0]], 'requests-mooncake.jsonl', { type: 'application/json' }));
        document.querySelector('.drop-zone').dispatchEvent(
          new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));`,
      readFileSync(trace, 'utf8'));
      const skipped = await until(s, `${engine}: the trace's fit`, `const el = document.querySelector('.traffic-fit');
        return el ? [...el.querySelectorAll('.bad-rows li')].map((li) => Number(li.dataset.line)) : null;`);
      assert.deepEqual(skipped, [11, 21], `${engine}: the trace's skipped lines`);
      const traced = cli('traffic', trace, '--preset', 'llm-70b-chat', '--link').trim();
      await until(s, `${engine}: the trace's scenario in the link`,
        'return location.hash.slice(1) === arguments[0] ? true : null;', [traced]);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-trace-1280.png`), await s.screenshot());
      // Hosted APIs beside nodes: each platform's $ per million output tokens, TTFT and TPOT
      // p95 are the CLI's, the APIs' own fieldsets are drawn, and the page fits 390 px.
      await s.run(`const el = document.getElementById('preset'); el.value = 'llm-70b-api-vs-self-host';
        el.dispatchEvent(new Event('change', { bubbles: true }));`);
      shown = await settled(s, shown.run);
      const apiReport = JSON.parse(cli('eval', '--preset', 'llm-70b-api-vs-self-host', '--no-flips'));
      const api = await s.run(LLM_READ);
      for (const p of apiReport.platforms) {
        for (const key of ['usd_per_million_output_tokens', 'ttft_p95_ms', 'tpot_p95_ms']) {
          assert.equal(Number(api[`services.0.llm.${key}.p50`]?.[p.name]), p.services[0].llm[key].p50,
            `${engine}: llm-70b-api-vs-self-host ${p.name} ${key}`);
        }
      }
      assert.equal(await s.run('return document.querySelectorAll("fieldset.platform.hosted-api").length;'), 2);
      const apiNarrow = await narrowFrame(s, `${engine}: hosted APIs`);
      assert.equal(apiNarrow.overflow, 0, `${engine}: hosted APIs at 390 px scroll sideways: ${JSON.stringify(apiNarrow.wide)}`);
      assert.deepEqual(apiNarrow.errors, [], `${engine}: hosted APIs at 390 px: window error events`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-api-1280.png`), await s.screenshot());
      // A number typed into a field (the FTE cost), then Enter: a new run that settles.
      await s.run(`const el = document.getElementById('preset'); el.value = 'batch-vs-eks-spot';
        el.dispatchEvent(new Event('change', { bubbles: true }));`);
      shown = await settled(s, shown.run);
      await s.run(`const el = document.getElementById('fte-cost-number'); el.value = '300000';
        el.dispatchEvent(new Event('change', { bubbles: true }));`);
      shown = await settled(s, shown.run);
      sameAsCli(shown, JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot', '--set', 'people.fte_cost_usd_per_year=300000')), 'FTE cost 300,000');
      // 390 px: the page in an iframe of that width does not scroll sideways.
      const narrow = await narrowFrame(s, engine);
      assert.equal(narrow.overflow, 0, `${engine} at 390 px scrolls sideways: ${JSON.stringify(narrow.wide)}`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-1280.png`), await s.screenshot());
      // No window `error` event, in the page or in the narrow frame.
      const errors = (await s.run(READ)).errors;
      assert.deepEqual(errors, [], `${engine}: window error events`);
      assert.deepEqual(narrow.errors, [], `${engine} at 390 px: window error events`);
    } finally {
      await s.close();
      await stopServer(server);
    }
  });

  test(`${engine}: tuning each platform gives the CLI's figures, and its report fits 390 px`, async () => {
    const server = await serveDist(process.env.DIST ?? 'dist', { watchErrors: true });
    const url = `http://127.0.0.1:${server.address().port}${SUB_PATH}`;
    const s = await startSession(engine);
    try {
      await s.size(1280, 900);
      await s.go(url);
      const wide = await tune(s, engine, false);
      assert.equal(wide.state, 'done', `${engine}: the tune finished`);
      const expected = JSON.parse(cli('tune', '--preset', 'batch-vs-eks-spot', '--format', 'json'));
      assert.deepEqual(wide.platforms.map(([n, a, t]) => [n, Number(a), Number(t)]),
        expected.platforms.map((p) => [p.name, p.as_typed.mean, p.tuned.mean]));
      assert.equal(wide.fair, `Each platform at its best: ${expected.fair_verdict}`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-tune-1280.png`), await s.screenshot());
      await s.run(OPEN_FRAME);
      const narrow = await tune(s, `${engine} at 390 px`, true);
      assert.equal(narrow.state, 'done', `${engine} at 390 px: the tune finished`);
      assert.equal(narrow.overflow, 0, `${engine}: the tune's report at 390 px scrolls sideways`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-tune-390.png`), await s.screenshot());
      assert.deepEqual((await s.run(READ)).errors, [], `${engine}: window error events`);
      assert.deepEqual(narrow.errors, [], `${engine} at 390 px: window error events`);
    } finally {
      await s.close();
      await stopServer(server);
    }
  });

  test(`${engine}: the loading shell shows the coarse pass's numbers before the page, and fits 390 px`, async () => {
    // The page's own module is held back until the shell has been read.
    const server = await serveDist(process.env.DIST ?? 'dist', { watchErrors: true, hold: /^gpucost-app-[0-9a-f]+_bg\.wasm$/ });
    const url = `http://127.0.0.1:${server.address().port}${SUB_PATH}#v=1&p=multi-team-cluster`;
    const s = await startSession(engine);
    try {
      await s.size(1280, 900);
      await s.go(url);
      const SHELL = `
        const doc = arguments[0] ? document.querySelector('iframe')?.contentDocument : document;
        const rows = [...(doc?.querySelectorAll('[data-first-number] tbody tr') ?? [])];
        return rows.length ? { note: doc.querySelector('.first-number-note').textContent,
          rows: rows.map((r) => ({ name: r.dataset.platform,
            tco: r.querySelector('[data-first-number="monthly_tco_usd"]').dataset.value,
            perHour: r.querySelector('[data-first-number="usd_per_useful_gpu_hour"]').dataset.value })),
          overflow: doc.documentElement.scrollWidth - doc.documentElement.clientWidth } : null;`;
      const shell = async (inFrame) => {
        for (let i = 0; i < 300; i += 1) {
          const found = await s.run(SHELL, inFrame).catch(() => null);
          if (found) return found;
          await new Promise((ok) => setTimeout(ok, 200));
        }
        throw new Error(`${engine}: no first number in the loading shell`);
      };
      const shown = await shell(false);
      const [, coarse] = shown.note.match(/first (\d+) of/);
      const report = JSON.parse(cli('eval', '--preset', 'multi-team-cluster', '--reps', coarse));
      assert.deepEqual(shown.rows.map((r) => r.name), report.platforms.map((p) => p.name));
      for (const [i, p] of report.platforms.entries()) {
        assert.equal(Number(shown.rows[i].tco), p.monthly_tco_usd.p50, `${engine} shell: ${p.name} TCO`);
        assert.equal(Number(shown.rows[i].perHour), p.usd_per_useful_gpu_hour.p50, `${engine} shell: ${p.name} $/GPU-h`);
      }
      // The shell at 390 px, in a frame of that width (its page's module held back too).
      await s.run(`const f = document.createElement('iframe');
        f.style.cssText = 'width:390px;height:800px;border:1px solid';
        f.src = location.href;
        document.body.prepend(f);`);
      const narrow = await shell(true);
      assert.equal(narrow.overflow, 0, `${engine}: the shell at 390 px scrolls sideways`);
      if (SHOTS) writeFileSync(join(SHOTS, `${engine}-shell-390.png`), await s.screenshot());
      // Then the page loads and shows the whole run's numbers.
      server.release();
      const page = await settled(s, 0);
      sameAsCli(page, JSON.parse(cli('eval', '--preset', 'multi-team-cluster')), `${engine} after the shell`);
      assert.deepEqual(page.errors, [], `${engine}: window error events`);
    } finally {
      server.release();
      await s.close();
      await stopServer(server);
    }
  });

  test(`${engine}: the single file, with no worker, runs on the main thread`, async () => {
    const dir = mkdtempSync(join(tmpdir(), `gpucost-${engine}-`));
    const file = process.env.SINGLE_FILE ? resolve(process.env.SINGLE_FILE) : join(dir, 'gpucost.html');
    if (!process.env.SINGLE_FILE) writeSingleFile(process.env.DIST ?? 'dist', file);
    const s = await startSession(engine);
    try {
      await s.go(pathToFileURL(file).href);
      const shown = await settled(s, 0);
      assert.match(shown.note, /^No background worker here/);
      sameAsCli(shown, JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot')), 'single file');
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
