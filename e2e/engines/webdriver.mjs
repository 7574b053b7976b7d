// A minimal W3C WebDriver client (what the cross-browser smoke suite needs: a session, a URL,
// scripts, window size, a screenshot), and the drivers it talks to, started from their Debian
// and cargo install paths: geckodriver for Firefox ESR, WebKitWebDriver (with `--automation`,
// under xvfb-run) for WebKitGTK, the engine closest to Safari's that runs on Linux. Nothing is
// downloaded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** A free loopback port. */
function freePort() {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** WebKitGTK's MiniBrowser, the browser WebKitWebDriver automates (Debian's multiarch path). */
const MINI_BROWSER = process.env.WEBKIT_BROWSER
  ?? ['x86_64', 'aarch64'].map((arch) => `/usr/lib/${arch}-linux-gnu/webkit2gtk-4.1/MiniBrowser`).find(existsSync)
  ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** The engines: how to start each one's driver and what to ask it for. */
export const ENGINES = {
  firefox: {
    driver: (port) => [process.env.GECKODRIVER ?? join(homedir(), '.cargo/bin/geckodriver'), [`--port=${port}`]],
    capabilities: {
      browserName: 'firefox',
      'moz:firefoxOptions': { binary: process.env.FIREFOX ?? '/usr/bin/firefox-esr', args: ['-headless'] },
    },
  },
  webkit: {
    driver: (port) => ['xvfb-run', ['-a', process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver', `--port=${port}`]],
    capabilities: {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: MINI_BROWSER,
        args: ['--automation'],
      },
    },
  },
};

/** Starts `engine`'s driver and a session in it; resolves to the session's commands. */
export async function startSession(engine) {
  const { driver, capabilities } = ENGINES[engine];
  const port = await freePort();
  const [cmd, args] = driver(port);
  const proc = spawn(cmd, args, { stdio: 'ignore', detached: true });
  proc.unref();
  const base = `http://127.0.0.1:${port}`;
  let created;
  for (let i = 0; i < 100 && !created; i += 1) {
    await new Promise((r) => setTimeout(r, 200));
    try {
      const res = await fetch(`${base}/session`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ capabilities: { alwaysMatch: capabilities } }),
      });
      created = await res.json();
    } catch {
      // the driver is not listening yet
    }
  }
  const id = created?.value?.sessionId;
  if (!id) {
    try { process.kill(-proc.pid); } catch { /* gone */ }
    throw new Error(`${engine}: no session: ${JSON.stringify(created)}`);
  }
  const call = async (method, path, body) => {
    const res = await fetch(`${base}/session/${id}${path}`, {
      method,
      headers: JSON_TYPE,
      body: body ? JSON.stringify(body) : undefined,
    });
    const { value } = await res.json();
    if (value?.error) throw new Error(`${engine} ${path}: ${value.error}: ${value.message}`);
    return value;
  };
  return {
    go: (url) => call('POST', '/url', { url }),
    /** Runs `script` (a function body) with `args`; resolves to what it returns. */
    run: (script, ...args) => call('POST', '/execute/sync', { script, args }),
    size: (width, height) => call('POST', '/window/rect', { width, height }),
    screenshot: async () => Buffer.from(await call('GET', '/screenshot'), 'base64'),
    async close() {
      await fetch(`${base}/session/${id}`, { method: 'DELETE' }).catch(() => {});
      try { process.kill(-proc.pid); } catch { /* gone */ }
    },
  };
}
