// The loading shell's first number, the first part of the release page's start-up script
// (scripts/externalize-start-script.mjs puts it there, with the first-number module's hashed
// file names in place of the two placeholders in capitals below). Before the page's own module
// (over a megabyte) is fetched, a worker runs the much smaller first-number module
// (src/first_number.rs) on the link, and the shell shows its verdict and table: the page's
// coarse pass, its first replications, with whatever the link said that could not be read.
// Then the start-up script fetches the page's module, which replaces the shell as it mounts.
// Whatever goes wrong here (no module worker, a link the shell leaves to the page, a module
// that takes over FIRST_NUMBER_LOAD_MS to arrive or a pass over FIRST_NUMBER_PASS_MS, an answer
// it cannot show) only means no early number: the page's module is fetched then.
/** How long the module may take to arrive and instantiate, then the pass to run, ms. */
const FIRST_NUMBER_LOAD_MS = 30000;
const FIRST_NUMBER_PASS_MS = 8000;

/** An answer the shell can show: `ok`, a verdict and a row per platform. */
function showable(answer) {
  return Boolean(answer && answer.ok === true && typeof answer.verdict === 'string'
    && Array.isArray(answer.columns) && answer.columns.length === 3
    && typeof answer.per_work_key === 'string'
    && Array.isArray(answer.platforms) && answer.platforms.length > 0
    && answer.platforms.every((p) => p && typeof p.name === 'string' && typeof p.monthly_tco === 'string'));
}

/** Runs the first-number worker on the link; resolves with its answer, or null. Never throws. */
function firstNumberAnswer() {
  return new Promise((resolve) => {
    let worker;
    let timer;
    const done = (answer) => {
      clearTimeout(timer);
      worker?.terminate();
      resolve(answer);
    };
    try {
      worker = new Worker(new URL('./first-number-worker.js', import.meta.url), { type: 'module' });
      timer = setTimeout(() => done(null), FIRST_NUMBER_LOAD_MS);
      worker.onmessage = ({ data }) => {
        if (data === 'loaded') {
          clearTimeout(timer);
          timer = setTimeout(() => done(null), FIRST_NUMBER_PASS_MS);
          return;
        }
        try {
          const answer = JSON.parse(data);
          done(showable(answer) ? answer : null);
        } catch {
          done(null);
        }
      };
      worker.onerror = () => done(null);
      worker.onmessageerror = () => done(null);
      worker.postMessage({
        glue: new URL('./FIRST_NUMBER_GLUE', import.meta.url).href,
        wasm: new URL('./FIRST_NUMBER_WASM', import.meta.url).href,
        fragment: location.hash,
      });
    } catch {
      done(null);
    }
  });
}

/** An element with a class and text. */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The shell's verdict and table, from the worker's answer, above its status line. */
function showFirstNumber(answer) {
  const status = document.getElementById('loading-status');
  if (!status) return false;
  const section = el('section', 'first-number');
  section.setAttribute('aria-label', 'First results');
  section.dataset.firstNumber = '';
  const notices = Array.isArray(answer.notices) ? answer.notices.filter((n) => typeof n === 'string') : [];
  if (notices.length) {
    // As the page says it (src/ui/link_sync.rs), which repeats it once it has loaded.
    const box = el('div', 'link-notices');
    box.append(el('p', '', 'Parts of the link could not be read:'));
    const list = el('ul');
    for (const n of notices) list.append(el('li', '', n));
    box.append(list);
    section.append(box);
  }
  section.append(el('p', 'verdict', answer.verdict));
  const table = el('table', 'embed-table');
  const head = table.createTHead().insertRow();
  for (const title of answer.columns) {
    const th = el('th', '', title);
    th.scope = 'col';
    head.append(th);
  }
  const body = table.createTBody();
  for (const p of answer.platforms) {
    const row = body.insertRow();
    row.dataset.platform = p.name;
    const name = el('th', '', p.name);
    name.scope = 'row';
    const tco = el('td');
    const value = el('span', '', p.monthly_tco);
    value.dataset.firstNumber = 'monthly_tco_usd';
    value.dataset.value = String(p.monthly_tco_p50);
    tco.append(value, el('span', 'range', ` (${p.monthly_tco_range})`));
    // The cost of the work as the verdict ranks it (per useful reference-GPU-hour, per
    // million requests or per pipeline run).
    const perWork = el('td', '', p.per_work);
    perWork.dataset.firstNumber = answer.per_work_key;
    perWork.dataset.value = p.per_work_p50 == null ? 'n/a' : String(p.per_work_p50);
    row.append(name, tco, perWork);
  }
  section.append(table);
  section.append(el('p', 'first-number-note',
    `Medians over the first ${answer.replications} of ${answer.of} replications. The rest, the charts and the editor come with the calculator.`));
  status.before(section);
  // A wiki's small frame (an embed link) shows the answer, as the page's embed view does.
  if (answer.embed) document.querySelector('#loading-shell .masthead')?.remove();
  status.textContent = 'First results above; loading the calculator…';
  return true;
}

// Whatever happens here, the page's module is loaded next (the script's `try` below).
try {
  const firstNumber = await firstNumberAnswer();
  if (firstNumber && showFirstNumber(firstNumber)) {
    // The first number on screen: what e2e/first-load.test.mjs and the benchmarks time and weigh.
    performance.mark('gpucost:first-number');
  }
} catch {
  // No early number; the page follows.
}
