// Makes the calculator ONE self-contained HTML file from a release build (dist/, as `make build`
// leaves it, or straight from `trunk build --release`): the app's wasm-bindgen glue and start-up
// code in one inline module script, its wasm in base64, the CSS in a <style>, the favicon as a
// data: URL. Opened from file:// (or mailed, or put on a share) it needs nothing else.
//
// Left out on purpose: the simulation Web Worker (a file:// page has an opaque origin, where the
// app runs the simulation in main-thread slices and says so) and the Content-Security-Policy
// <meta> (its "no inline script" rule cannot hold for a single file).
//
// Usage: node scripts/make-single-file.mjs DIST OUT   (exit 1 with a message if DIST is not a
// release build this script understands). Also importable: makeSingleFile(dist) -> HTML text.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

class BuildError extends Error {}

function read(dist, rel, encoding) {
  const file = join(dist, rel);
  if (!existsSync(file)) throw new BuildError(`${file} is missing: is ${dist} a release build?`);
  return readFileSync(file, encoding);
}

/** The one match of `re` in `text`, or an error naming `what`. */
function one(text, re, what) {
  const m = text.match(re);
  if (!m) throw new BuildError(`${what} not found`);
  return m;
}

/** A relative asset path from the page ("./x.css" or "x.css"), refusing anything else. */
function local(href, what) {
  if (!/^(\.\/)?[\w.-]+$/.test(href)) throw new BuildError(`${what} is not a file next to the page: ${href}`);
  return href.replace(/^\.\//, '');
}

/** Text that goes inside an inline <script> or <style> must not close it early. */
function inlineable(text, tag, what) {
  if (new RegExp(`</${tag}`, 'i').test(text)) throw new BuildError(`${what} contains </${tag}: cannot inline it`);
  return text;
}

/**
 * wasm-bindgen's `--target web` glue as a script statement defining `bindings`, shaped like
 * `import * as bindings`: its `export`s become local declarations inside a function, so its
 * other names (e.g. its `wasm`) stay private as they were in the module.
 */
function glueWithoutExports(glue, name) {
  if (/^\s*import\b/m.test(glue)) throw new BuildError(`${name} imports other modules: cannot inline it`);
  const names = [];
  let body = glue.replace(/^export (class|function|async function|const|let) (\w+)/gm, (_, kind, id) => {
    names.push(`${id}: ${id}`);
    return `${kind} ${id}`;
  });
  body = body.replace(/^export \{([^}]*)\};?$/gm, (_, list) => {
    for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
      const [local, exported = local] = item.split(/\s+as\s+/);
      names.push(`${exported}: ${local}`);
    }
    return '';
  });
  if (/^\s*export\b/m.test(body)) throw new BuildError(`${name}: an export form this script does not know`);
  if (!names.some((n) => n.startsWith('default:'))) throw new BuildError(`${name}: no default export (init)`);
  return `const bindings = (() => {\n${body}\nreturn Object.freeze({ ${names.join(', ')} });\n})();\n`;
}

/** The single-file page for the release build in `dist`. */
export function makeSingleFile(dist) {
  // First the markup alone: no preloads of the files about to be inlined, no CSP, and none of the
  // comments about the multi-file build.
  let html = read(dist, 'index.html', 'utf8')
    .replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, '')
    .replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
    .replace(/\s*<!--[\s\S]*?-->/g, '')
    .replace(/\n\s*\n/g, '\n')
    .replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    <!-- Single-file build'
      + ' (scripts/make-single-file.mjs): everything inline, no worker, no CSP. -->');

  // Trunk's start-up module (inline, or moved into start-*.js by externalize-start-script.mjs)
  // names the glue and the wasm; it becomes one inline module with both.
  const startTag = /<script type="module"(?: src="([^"]+)")?>([\s\S]*?)<\/script>/;
  const [, startSrc, startInline] = one(html, startTag, 'the start-up <script type="module">');
  // No first number here (src/first-number-shell.js): its module and worker are separate files,
  // and the page's own module is inline, so the page starts at once.
  const start = (startSrc ? read(dist, local(startSrc, 'the start-up script'), 'utf8') : startInline)
    .replace(/^\/\/ BEGIN first number\n[\s\S]*?^\/\/ END first number\n/m, '');
  if (start.includes('// BEGIN first number')) throw new BuildError('the first-number part of the start-up script has no end');
  const importLine = /^(?:import init, \* as bindings from '([^']+)';|const bindings = await import\('([^']+)'\), init = bindings\.default;)$/m;
  const imported = one(start, importLine, "the start-up script's import of the app");
  const glueName = local(imported[1] ?? imported[2], 'the glue');
  const wasmPath = /module_or_path: '([^']+)'/;
  const wasmName = local(one(start, wasmPath, "the start-up script's wasm path")[1], 'the wasm');
  const glue = glueWithoutExports(read(dist, glueName, 'utf8'), glueName);
  const wasm = read(dist, wasmName).toString('base64');
  const script = inlineable(
    `${glue}\n// The app's wasm (${wasmName}), base64.\n`
      + `const wasmBytes = Uint8Array.from(atob("${wasm}"), (c) => c.charCodeAt(0));\n`
      + `const init = bindings.default;\n`
      + start.replace(importLine, '').replace(wasmPath, 'module_or_path: wasmBytes').trim(),
    'script',
    glueName,
  );
  html = html.replace(startTag, () => `<script type="module">\n${script}\n</script>`);

  // The stylesheet(s) inline, the favicon as a data: URL.
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"[^>]*>/g;
  if (!stylesheet.test(html)) throw new BuildError('no <link rel="stylesheet"> in index.html');
  html = html.replace(stylesheet, (_, href) =>
    `<style>\n${inlineable(read(dist, local(href, 'a stylesheet'), 'utf8'), 'style', href)}</style>`);
  const [iconTag, iconHref] = one(html, /<link rel="icon" href="([^"]+)"[^>]*>/, 'the <link rel="icon">');
  const iconType = iconHref.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
  const icon = read(dist, local(iconHref, 'the favicon')).toString('base64');
  html = html.replace(iconTag, () => `<link rel="icon" href="data:${iconType};base64,${icon}" />`);

  // Nothing in the markup (inline script and style aside) may point at another file any more.
  const markup = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
  const leftover = markup.match(/\s(?:src|href)="(?!data:)[^"]*"/);
  if (leftover) throw new BuildError(`a reference to another file is left:${leftover[0]}`);
  return html;
}

/** Writes the single file for `dist` to `out`; returns its size, raw and gzip -9, in bytes. */
export function writeSingleFile(dist, out) {
  const html = makeSingleFile(dist);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, html);
  return { raw: Buffer.byteLength(html), gzip: gzipSync(html, { level: 9 }).length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dist, out] = process.argv.slice(2);
  if (!dist || !out) {
    console.error('usage: node scripts/make-single-file.mjs DIST OUT');
    process.exit(1);
  }
  try {
    const { raw, gzip } = writeSingleFile(dist, out);
    console.log(`${out}: ${raw} bytes, ${gzip} gzip (${(gzip / 1000).toFixed(1)} kB gzip)`);
  } catch (e) {
    if (!(e instanceof BuildError)) throw e;
    console.error(`make-single-file: ${e.message}`);
    process.exit(1);
  }
}
