// The live viewer on a planar scene (docs/planar.md): the bar offers no hybrid switch and says
// discs, and a shift-click throws a disc in the plane (a new body "thrown-1" with a planar circle
// shape, at y = 0, moving) instead of the error "a planar world needs a planar shape".
//   node check_live_planar.mjs PIVOT SCENE SCREENSHOT.png
// Exit 0 when every check passes, 1 when one fails, 77 without chromium.
import { check, runLiveCheck } from './browser.mjs';

const [pivot, sceneFile, screenshot] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await runLiveCheck(pivot, sceneFile, screenshot, 'the live viewer runs a planar scene', async (page) => {
  const bar = await page.evaluate(() => ({
    hybrid: getComputedStyle(document.getElementById('pivot-live-hybrid').parentElement).display,
    mode: document.querySelector('#pivot-live-mode option[value="throw"]').textContent,
  }));
  check(bar.hybrid === 'none', `no hybrid switch in a planar run (display ${bar.hybrid})`);
  check(bar.mode === 'mouse: throw discs', `the mouse mode says discs ("${bar.mode}")`);

  // shift-click above the stack: a throw from the eye through that pixel
  const top = await page.evaluate(() => window.pivotLive.screenOf('box5'));
  await page.keyboard.down('Shift');
  await page.mouse.click(top.x + 40, top.y - 80);
  await page.keyboard.up('Shift');
  const thrown = await page.waitForFunction(() => window.pivotLive.screenOf('thrown-1') !== null,
    { timeout: 20000, polling: 50 }).then(() => true, () => false);
  const errorText = await page.evaluate(() => document.getElementById('pivot-live-error').textContent);
  check(thrown, `a shift-click throws a disc (thrown-1 appears${errorText ? '; the page shows: ' + errorText : ''})`);
  if (thrown) {
    const p0 = await page.evaluate(() => window.pivotLive.position('thrown-1'));
    await sleep(800);
    const p1 = await page.evaluate(() => window.pivotLive.position('thrown-1'));
    check(p0[1] === 0 && p1[1] === 0, `the disc stays in the plane y = 0 (${p0[1]}, ${p1[1]})`);
    check(Math.hypot(p1[0] - p0[0], p1[2] - p0[2]) > 1e-3, 'the disc moves');
  }
});
