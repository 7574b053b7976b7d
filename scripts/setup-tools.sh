#!/usr/bin/env bash
# Installs what building, serving and testing the calculator need, skipping whatever is already
# present, so a second run takes a second. With --browser it also installs the browsers `make
# test` drives: Debian's Chromium and ChromeDriver, Firefox ESR and WebKitGTK's WebDriver (with
# xvfb), and geckodriver from crates.io.
#
# Installs: the wasm32 target, rustfmt and clippy; trunk ~0.21; wasm-bindgen-cli at exactly the
# wasm-bindgen version in Cargo.lock (it also provides wasm-bindgen-test-runner); the npm dev
# tools in package-lock.json (wasm-opt from binaryen, playwright-core); with --browser, chromium,
# chromium-driver, firefox-esr, webkit2gtk-driver, xvfb and geckodriver. Nothing is downloaded from outside the crates.io, npm and Debian registries.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[[ "${1:-}" == "--browser" ]] && want_browser=1

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  say "installing Debian packages: $*"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

command -v cargo >/dev/null || { say "cargo not found: install Rust with rustup first"; exit 1; }

# Rust target and components.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^${component}"; then
    rustup component add "$component"
  fi
done

# Trunk 0.21 (0.22 needs a newer rustc).
if ! trunk --version 2>/dev/null | grep -qE '^trunk 0\.21\.'; then
  say "installing trunk ~0.21 (takes about 15 minutes on 2 cores)"
  cargo install trunk --version '~0.21' --locked
fi

# wasm-bindgen-cli: exactly Cargo.lock's wasm-bindgen, which Trunk.toml must pin too.
lock_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
trunk_version=$(sed -n 's/^wasm_bindgen = "\(.*\)"$/\1/p' Trunk.toml)
if [[ -z "$lock_version" ]]; then
  say "no wasm-bindgen in Cargo.lock"; exit 1
fi
if [[ "$lock_version" != "$trunk_version" ]]; then
  say "Trunk.toml pins wasm_bindgen = \"$trunk_version\" but Cargo.lock has $lock_version: make them equal"
  exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen ${lock_version}"; then
  say "installing wasm-bindgen-cli ${lock_version}"
  # Not --locked: the CLI's own lockfile pins a crate the registry no longer serves.
  cargo install wasm-bindgen-cli --version "=${lock_version}" --force
fi

# Node.js tools: wasm-opt (binaryen) and playwright-core, at the versions in package-lock.json.
if ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm dev tools (binaryen, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [[ $want_browser -eq 1 ]] && [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  apt_install chromium chromium-driver
fi
# The cross-browser smoke suite (e2e/engines/): Firefox ESR with geckodriver, and WebKitGTK's
# WebKitWebDriver, which needs an X server (xvfb-run).
if [[ $want_browser -eq 1 ]] && [[ ! -x /usr/bin/firefox-esr || ! -x /usr/bin/WebKitWebDriver || ! -x /usr/bin/xvfb-run || ! -x /usr/bin/xauth ]]; then
  apt_install firefox-esr webkit2gtk-driver xvfb xauth
fi
if [[ $want_browser -eq 1 ]] && ! command -v geckodriver >/dev/null; then
  say "installing geckodriver (about 3 minutes on 2 cores)"
  cargo install geckodriver --locked
fi

say "tools ready: $(trunk --version), $(wasm-bindgen --version), $(node_modules/.bin/wasm-opt --version | cut -d' ' -f1-3)"
