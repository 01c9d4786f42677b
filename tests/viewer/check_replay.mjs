// Loads a replay.html in headless chromium (puppeteer-core) and checks what a user would see:
// no console errors and no network requests, a canvas that is not blank (pixel variance), the
// frame counter reaching the last frame when played, each named toggle changing the picture;
// saves a screenshot.
//   node check_replay.mjs REPLAY.html SCREENSHOT.png TOGGLE,TOGGLE,...
// Exit 0 when every check passes, 1 when one fails, 77 (CTest's skip) without chromium.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { check, failures, findChromium, launchBrowser, openPage } from './browser.mjs';

const [html, screenshot, toggleList = ''] = process.argv.slice(2);
const chromium = findChromium();
const browser = await launchBrowser(chromium);
try {
  const { page, errors } = await openPage(browser);
  const network = [];
  page.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) network.push(r.url()); });

  const started = Date.now();
  await page.goto(pathToFileURL(resolve(html)).href, { waitUntil: 'load', timeout: 120000 });
  await page.waitForFunction(() => window.pivotReplay !== undefined || document.getElementById('pivot-error'),
    { timeout: 120000 });
  const loaded = await page.evaluate(() => window.pivotReplay !== undefined);
  check(loaded, `the viewer starts (${((Date.now() - started) / 1000).toFixed(1)} s to load)`);
  if (!loaded) throw new Error(await page.evaluate(() => document.getElementById('pivot-error').textContent));
  const frames = await page.evaluate(() => window.pivotReplay.frameCount);

  // the middle frame, through the scrubber as a user would
  const scrubTo = (f) => page.evaluate((f) => {
    const s = document.getElementById('pivot-scrub');
    s.value = f;
    s.dispatchEvent(new Event('input'));
  }, f);
  await scrubTo(Math.floor(frames / 2));
  const snap = (name) => page.evaluate((name) => window.pivotReplay.snapshot(name), name);
  const differing = (a, b) => page.evaluate((a, b) => window.pivotReplay.differing(a, b), a, b);
  const before = await snap('before');
  check(before.variance > 5, `the canvas is not blank (luminance variance ${before.variance.toFixed(1)} over ${before.pixels} pixels)`);
  check(await page.evaluate(() => window.pivotReplay.frame()) === Math.floor(frames / 2), 'the scrubber moves to a frame');

  for (const toggle of toggleList.split(',').filter(Boolean)) {
    const box = `#pivot-toggle-${toggle}`;
    const enabled = await page.$eval(box, (b) => !b.disabled);
    check(enabled, `the ${toggle} toggle is enabled`);
    if (!enabled) continue;
    await page.click(box);
    await snap('after');
    const changed = await differing('before', 'after');
    check(changed >= 20, `toggling ${toggle} changes the picture (${changed} pixels differ)`);
    await page.click(box);
    await snap('back');
    const restored = await differing('before', 'back');
    check(restored === 0, `toggling ${toggle} back restores it (${restored} pixels differ)`);
  }

  // play from the start at the fastest speed until the counter shows the last frame; the draw
  // rate while playing is reported
  await scrubTo(0);
  await page.select('#pivot-speed', '30');
  const fps = await page.evaluate(() => new Promise((done) => {
    let n = 0;
    const t0 = performance.now();
    const count = () => { n++; if (performance.now() - t0 < 2000) requestAnimationFrame(count); else done(n / ((performance.now() - t0) / 1000)); };
    document.getElementById('pivot-play').click();
    requestAnimationFrame(count);
  }));
  const last = `frame ${frames} / ${frames}`;
  const reached = await page.waitForFunction((last) => document.getElementById('pivot-counter').textContent.startsWith(last),
    { timeout: 180000 }, last).then(() => true, () => false);
  check(reached, `the counter reaches "${last}" (${fps.toFixed(0)} frames drawn per second while playing)`);

  await scrubTo(Math.floor(frames / 2));
  await page.screenshot({ path: screenshot });
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  check(network.length === 0, `no network requests${network.length ? ': ' + network.join(' ') : ''}`);
} catch (e) {
  check(false, `the replay runs: ${e.message}`);
} finally {
  await browser.closeAndClean();
}
process.exit(failures.length ? 1 : 0);
