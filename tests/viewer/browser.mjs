// What the headless-chromium checks (check_replay.mjs, check_live.mjs) share: chromium or CTest's
// skip (exit 77), puppeteer-core from the viewer's development packages (viewer/package.json),
// the list of checks, a page that collects console errors, and a live check from start to exit.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** the chromium binary (PIVOT_CHROMIUM, else /usr/bin/chromium); exits 77 when there is none */
export function findChromium() {
  const chromium = process.env.PIVOT_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    console.log(`SKIP: no chromium at ${chromium} (apt-get install chromium, or tools/setup.sh --viewer-tests)`);
    process.exit(77);
  }
  return chromium;
}

/** failed checks, by description; check() prints every check */
export const failures = [];
export const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}`);
  if (!ok) failures.push(what);
};

/**
 * headless chromium with a throwaway profile; close() also removes the profile.
 * A cold first start of chromium on a loaded 2-core machine (CI runs these tests beside
 * compilations) once took longer than puppeteer's default 30 s to print its endpoint: the launch
 * waits up to 120 s and is tried three times, each attempt printed, before the test fails.
 */
export async function launchBrowser(chromium) {
  const viewer = process.env.PIVOT_VIEWER_DIR || fileURLToPath(new URL('../../viewer', import.meta.url));
  const puppeteer = createRequire(resolve(viewer, 'package.json'))('puppeteer-core');
  const attempts = 3;
  for (let attempt = 1; ; ++attempt) {
    const profile = mkdtempSync(join(tmpdir(), 'pivot-chromium-'));
    try {
      const browser = await puppeteer.launch({
        executablePath: chromium,
        headless: true,
        userDataDir: profile,
        timeout: 120000,
        args: [
          '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync',
          '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1280,720',
        ],
      });
      browser.closeAndClean = async () => {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      };
      return browser;
    } catch (e) {
      rmSync(profile, { recursive: true, force: true });
      console.log(`chromium launch attempt ${attempt} of ${attempts} failed: ${e.message}`);
      if (attempt === attempts) throw e;
    }
  }
}

/** a 1280 x 720 page; `errors` collects its console errors and uncaught exceptions */
export async function openPage(browser) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

/**
 * `pivot serve SCENE --port 0` started for a test: resolves to { server, address, exit } once
 * the server prints its address (exit: a promise of { code, signal }); fails after 20 s
 */
export async function startServer(pivot, sceneFile) {
  const server = spawn(pivot, ['serve', sceneFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let serverErr = '';
  server.stderr.on('data', (d) => { serverErr += d; });
  const exit = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
  const address = await new Promise((done, fail) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[0-9.]+:\d+\//);
      if (m) done(m[0]);
    });
    setTimeout(() => fail(new Error(`no address from pivot serve: ${out} ${serverErr}`)), 20000);
  });
  return { server, address, exit };
}

/**
 * One live-viewer check from start to exit: `pivot serve SCENE --port 0`, a page on it once five
 * frames have arrived, `checks(page)`, then a screenshot, no console errors, the browser closed
 * and the server stopped with SIGINT (exit 0 required); exits the process with 0 when every
 * check passed, 1 otherwise. `what` names the run in the failure of an exception.
 */
export async function runLiveCheck(pivot, sceneFile, screenshot, what, checks) {
  const chromium = findChromium();
  const { server, address, exit: serverExit } = await startServer(pivot, sceneFile);
  const browser = await launchBrowser(chromium);
  try {
    const { page, errors } = await openPage(browser);
    await page.goto(address, { waitUntil: 'load', timeout: 60000 });
    await page.waitForFunction(() => window.pivotLive && window.pivotLive.state.frames >= 5, { timeout: 60000 });
    await checks(page);
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  } catch (e) {
    check(false, `${what}: ${e.message}`);
  } finally {
    await browser.closeAndClean();
    server.kill('SIGINT');
    const { code } = await serverExit;
    check(code === 0, `pivot serve stops cleanly on SIGINT (exit ${code})`);
  }
  process.exit(failures.length ? 1 : 0);
}
