// Post-build step for the release page (dist/): moves Trunk's inline start-up module script
// into its own file and adds a Content-Security-Policy <meta> that the page satisfies: no
// inline script, WebAssembly allowed ('wasm-unsafe-eval'), only the page's own origin.
// `trunk serve` keeps the inline script (and no CSP) for development.
import { readFileSync, writeFileSync } from 'node:fs';
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
const body = `${imports.join('\n')}
try {
${rest}
} catch (e) {
  const p = document.createElement('p');
  p.className = 'start-error';
  p.setAttribute('role', 'alert');
  p.textContent = 'The calculator could not start in this browser (' + e + '). It needs '
    + 'WebAssembly with SIMD: Chrome or Edge 91, Firefox 89, Safari 16.4 or later.';
  const status = document.getElementById('loading-status');
  if (status) status.replaceWith(p); else document.body.prepend(p);
}
`;
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
