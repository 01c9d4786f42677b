// The live viewer on a scene with actuators (docs/viewer.md "Live runs"): a slider per actuator,
// named as in the scene; moving one sends set_target, and the frames then carry that target
// for it (the server applied it).
//   node check_live_actuators.mjs PIVOT SCENE ACTUATOR SCREENSHOT.png
// Exit 0 when every check passes, 1 when one fails, 77 without chromium.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import { check, failures, findChromium, launchBrowser, openPage, startServer } from './browser.mjs';

const [pivot, sceneFile, actuator, screenshot] = process.argv.slice(2);
const chromium = findChromium();
const { server, address, exit: serverExit } = await startServer(pivot, sceneFile);

const browser = await launchBrowser(chromium);
try {
  const { page, errors } = await openPage(browser);
  await page.goto(address, { waitUntil: 'load', timeout: 60000 });
  await page.waitForFunction(() => window.pivotLive && window.pivotLive.state.frames >= 5, { timeout: 60000 });
  const names = await page.evaluate(() => window.pivotLive.actuators());
  check(names.includes(actuator), `a slider for ${actuator} (sliders: ${names.join(', ')})`);
  // the slider at 80 % of its range, as a user's drag ends there
  const sent = await page.evaluate((name) => {
    const input = document.querySelector(`#pivot-live-actuators input[data-actuator="${name}"]`);
    const value = Number(input.min) + 0.8 * (Number(input.max) - Number(input.min));
    input.value = value;
    input.dispatchEvent(new Event('change'));
    return Number(input.value);
  }, actuator);
  const index = names.indexOf(actuator);
  const applied = await page.waitForFunction((i, v) => {
    const f = window.pivotLive.state.lastFrame;
    return f && f.targets && Math.abs(f.targets[i] - v) < 1e-12;
  }, { timeout: 20000, polling: 50 }, index, sent).then(() => true, () => false);
  check(applied, `the frames carry ${actuator}'s new target ${sent}`);
  mkdirSync(dirname(screenshot), { recursive: true });
  await page.screenshot({ path: screenshot });
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  check(false, `the live viewer drives actuators: ${e.message}`);
} finally {
  await browser.closeAndClean();
  server.kill('SIGINT');
  const { code } = await serverExit;
  check(code === 0, `pivot serve stops cleanly on SIGINT (exit ${code})`);
}
process.exit(failures.length ? 1 : 0);
