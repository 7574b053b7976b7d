// Post-build step for the release page (dist/): moves Trunk's inline start-up module script
// into its own file and adds a Content-Security-Policy <meta> that the page satisfies: no
// inline script, WebAssembly allowed ('wasm-unsafe-eval'), only the page's own origin.
// `trunk serve` keeps the inline script (and no CSP) for development.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dist = process.argv[2] ?? 'dist';
const indexPath = join(dist, 'index.html');
let html = readFileSync(indexPath, 'utf8');

const inline = /<script type="module">([\s\S]*?)<\/script>/;
const match = html.match(inline);
if (!match) {
  if (html.includes('http-equiv="Content-Security-Policy"')) process.exit(0); // already done
  console.error(`${indexPath}: no inline module script found`);
  process.exit(1);
}
// The start-up code goes in a try: where the app cannot start (no WebAssembly, a browser
// without WebAssembly SIMD, a damaged download) the page says why instead of staying blank: the
// message takes the place of the loading shell's status line (index.html).
const source = match[1].trim();
const imports = source.split('\n').filter((l) => /^import /.test(l));
const rest = source.split('\n').filter((l) => !/^import /.test(l)).join('\n').trim();

// Where the first-number module was built into dist/ (scripts/build-first-number.sh), the
// script shows the shell's first number (src/first-number-shell.js) before anything of the
// page's own module is fetched: Trunk's preloads of its glue and wasm go, and its static import
// becomes a dynamic one after the first number. The single file (scripts/make-single-file.mjs)
// drops the first-number part, between its two marker lines.
const glue = readdirSync(dist).find((f) => /^first-number-[0-9a-f]{16}\.js$/.test(f));
let firstNumber = '';
let appImport = imports.join('\n');
let dynamicImport = '';
if (glue) {
  const wasm = glue.replace(/\.js$/, '_bg.wasm');
  const shell = readFileSync(new URL('../src/first-number-shell.js', import.meta.url), 'utf8')
    .replaceAll('FIRST_NUMBER_GLUE', glue)
    .replaceAll('FIRST_NUMBER_WASM', wasm);
  firstNumber = `// BEGIN first number\n${shell.trim()}\n// END first number\n`;
  const appGlue = /^import init, \* as bindings from '([^']+)';$/;
  if (imports.length !== 1 || !appGlue.test(imports[0])) {
    console.error(`${indexPath}: the start-up script's import is not the one expected: ${imports.join(' ')}`);
    process.exit(1);
  }
  const [, appJs] = imports[0].match(appGlue);
  appImport = '';
  html = html.replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, '');
  dynamicImport = `const bindings = await import('${appJs}'), init = bindings.default;\n`;
}
const body = `${appImport}
${firstNumber}try {
${dynamicImport}${rest}
} catch (e) {
  const p = document.createElement('p');
  p.className = 'start-error';
  p.setAttribute('role', 'alert');
  p.textContent = 'The calculator could not start in this browser (' + e + '). It needs '
    + 'WebAssembly with SIMD: Chrome or Edge 91, Firefox 89, Safari 16.4 or later.';
  const status = document.getElementById('loading-status');
  if (status) status.replaceWith(p); else document.body.prepend(p);
}
`.replace(/^\n/, '');
const name = `start-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(dist, name), body);
html = html.replace(inline, `<script type="module" src="./${name}"></script>`);
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html)) {
  console.error(`${indexPath}: an inline script is left`);
  process.exit(1);
}

// The loading shell's inline <style> (index.html) is allowed by its hash, and nothing else inline.
const inlineStyles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
const styleHashes = inlineStyles.map((css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`);

export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  ["style-src 'self'", ...styleHashes].join(' '),
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
html = html.replace(
  '<meta charset="utf-8" />',
  `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
);
writeFileSync(indexPath, html);
console.log(`moved the start-up script to ${name}; added the CSP`);
