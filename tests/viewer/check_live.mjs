// The live viewer in a real browser: starts `pivot serve SCENE --port 0`, loads the printed
// address in headless chromium (puppeteer-core) and checks that frames arrive (the step counter
// grows), that the canvas is not blank, and that dragging the bottom middle box of the pyramid
// with the mouse pulls it out (the engine's frames show it moved) and disturbs the pyramid: the
// top box moves by more than 5 cm (it topples, or rides away on the dragged box: which of the
// two happens depends on the steps at which the mouse events arrive, and both are physical; the
// pyramid left alone drifts less than 0.1 mm). The holds are counted in simulated time (the
// frames' t), so a slow machine gets the same physics. Saves a screenshot; stops the server
// with SIGINT (it must exit 0).
//   node check_live.mjs PIVOT SCENE SCREENSHOT.png
// Exit 0 when every check passes, 1 when one fails, 77 (CTest's skip) without chromium.

import { check, failures, findChromium, launchBrowser, openPage, startServer } from './browser.mjs';

const [pivot, sceneFile, screenshot] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// waits until `simSeconds` of simulated time have passed in the frames (or `done()` holds), at
// most `wallSeconds` of wall time; returns the simulated time that passed
async function holdSim(page, simSeconds, done = async () => false, wallSeconds = 90) {
  const simTime = () => page.evaluate(() => window.pivotLive.state.lastFrame.t);
  const t0 = await simTime();
  const wall0 = Date.now();
  for (;;) {
    const t = await simTime();
    if (t - t0 >= simSeconds || (await done()) || Date.now() - wall0 > 1000 * wallSeconds) return t - t0;
    await sleep(50);
  }
}
const chromium = findChromium();
const { server, address, exit: serverExit } = await startServer(pivot, sceneFile);
console.log(`server at ${address}`);

const browser = await launchBrowser(chromium);
try {
  const { page, errors } = await openPage(browser);
  const foreign = [];
  page.on('request', (r) => { if (!r.url().startsWith(address.replace(/\/$/, '')) && !/^(data|blob):/.test(r.url())) foreign.push(r.url()); });

  await page.goto(address, { waitUntil: 'load', timeout: 60000 });
  await page.waitForFunction(() => window.pivotLive && window.pivotLive.state.frames >= 5, { timeout: 60000 });
  const s0 = await page.evaluate(() => window.pivotLive.state.step);
  await sleep(1500);
  const live = await page.evaluate(() => ({ ...window.pivotLive.state, lastFrame: undefined }));
  check(live.connected && live.inControl, 'the page connects to /ws and is in control');
  check(live.step > s0, `frames arrive: the step went from ${s0} to ${live.step} in 1.5 s (${live.frames} frames)`);
  const variance = await page.evaluate(() => window.pivotLive.variance());
  check(variance > 20, `the canvas is not blank (luminance variance ${variance.toFixed(1)})`);

  // grab the bottom middle box by its front face (seen from the default camera) and drag it
  // out of the pyramid towards the viewer and to the right, as a user would, and hold it
  const box = 'L1_2';
  const top = 'L3_1';
  const p0 = await page.evaluate((b) => window.pivotLive.position(b), box);
  const top0 = await page.evaluate((b) => window.pivotLive.position(b), top);
  const at = await page.evaluate((b) => window.pivotLive.screenOf(b, [0, -0.095, 0]), box);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) {
    await page.mouse.move(at.x + 8 * i, at.y + 10 * i);
    await sleep(50);
  }
  const pull = await page.evaluate(() => window.pivotLive.state.lastFrame.pull);
  const pulled = pull ? await page.evaluate((i) => window.pivotLive.nameOf(i), pull.body) : null;
  check(pulled === box, `the drag is a pull of ${box} in the engine (the frames show ${pulled})`);
  const held = await holdSim(page, 3.0);
  await page.mouse.up();
  const topMoved = async () => {
    const p = await page.evaluate((b) => window.pivotLive.position(b), top);
    return Math.hypot(p[0] - top0[0], p[1] - top0[1], p[2] - top0[2]) > 0.05;
  };
  const after = await holdSim(page, 3.0, topMoved);
  const p1 = await page.evaluate((b) => window.pivotLive.position(b), box);
  const top1 = await page.evaluate((b) => window.pivotLive.position(b), top);
  const moved = Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]);
  check(moved > 0.1, `the dragged box moved ${moved.toFixed(3)} m (held ${held.toFixed(2)} s simulated)`);
  const topMove = Math.hypot(top1[0] - top0[0], top1[1] - top0[1], top1[2] - top0[2]);
  check(topMove > 0.05, `the pyramid was disturbed: the top box moved ${topMove.toFixed(3)} m `
    + `(down ${(top0[2] - top1[2]).toFixed(3)} m) within ${after.toFixed(2)} s simulated after the release`);
  const released = await page.waitForFunction(() => window.pivotLive.state.lastFrame.pull === null,
    { timeout: 20000, polling: 50 }).then(() => true, () => false);
  check(released, 'releasing the mouse releases the pull');
  await page.screenshot({ path: screenshot });
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  check(foreign.length === 0, `no requests beyond the server${foreign.length ? ': ' + foreign.join(' ') : ''}`);
} catch (e) {
  check(false, `the live viewer runs: ${e.message}`);
} finally {
  await browser.closeAndClean();
  server.kill('SIGINT');
  const { code, signal } = await serverExit;
  check(code === 0, `pivot serve stops cleanly on SIGINT (exit ${code}${signal ? ', ' + signal : ''})`);
}
process.exit(failures.length ? 1 : 0);
