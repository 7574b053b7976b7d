// The loading shell's first number, the first part of the release page's start-up script
// (scripts/externalize-start-script.mjs puts it there, with the first-number module's hashed
// file names in place of the two placeholders in capitals below). Before the page's own module (over
// a megabyte) is fetched, a worker runs the much smaller first-number module
// (src/first_number.rs) on the link and the shell shows its verdict and table: the page's
// coarse pass, the same numbers the page shows first. Then the start-up script loads the page,
// which replaces the shell as it mounts. Whatever goes wrong here (no module worker, a link the
// shell leaves to the page, a pass over FIRST_NUMBER_WAIT_MS) only means no early number: the
// page loads as it did before.
const FIRST_NUMBER_WAIT_MS = 8000;

/** Runs the first-number worker on the link; resolves with its answer, or null. Never throws. */
function firstNumberAnswer() {
  return new Promise((resolve) => {
    let worker;
    try {
      worker = new Worker(new URL('./first-number-worker.js', import.meta.url), { type: 'module' });
    } catch {
      resolve(null);
      return;
    }
    const done = (answer) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), FIRST_NUMBER_WAIT_MS);
    worker.onmessage = ({ data }) => {
      try {
        const answer = JSON.parse(data);
        done(answer && answer.ok ? answer : null);
      } catch {
        done(null);
      }
    };
    worker.onerror = () => done(null);
    worker.postMessage({
      glue: new URL('./FIRST_NUMBER_GLUE', import.meta.url).href,
      wasm: new URL('./FIRST_NUMBER_WASM', import.meta.url).href,
      fragment: location.hash,
    });
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
  section.append(el('p', 'verdict', answer.verdict));
  const table = el('table', 'embed-table');
  const head = table.createTHead().insertRow();
  for (const title of ['Platform', 'Monthly TCO (p5–p95)', '$/useful GPU-h']) {
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
    const perHour = el('td', '', p.usd_per_useful_gpu_hour);
    perHour.dataset.firstNumber = 'usd_per_useful_gpu_hour';
    perHour.dataset.value = p.usd_per_useful_gpu_hour_p50 == null ? 'n/a' : String(p.usd_per_useful_gpu_hour_p50);
    row.append(name, tco, perHour);
  }
  section.append(table);
  section.append(el('p', 'first-number-note',
    `Medians over the first ${answer.replications} of ${answer.of} replications. The rest, the charts and the editor come with the calculator.`));
  status.before(section);
  status.textContent = 'Loading the calculator…';
  return true;
}

const firstNumber = await firstNumberAnswer();
if (firstNumber && showFirstNumber(firstNumber)) {
  // The first number on screen: what e2e/first-load.test.mjs and the benchmarks time and weigh.
  performance.mark('gpucost:first-number');
}
