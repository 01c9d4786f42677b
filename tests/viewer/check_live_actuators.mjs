// The live viewer on a scene with actuators (docs/viewer.md "Live runs"): a slider per actuator,
// named as in the scene; moving one sends set_target, and the frames then carry that target
// for it (the server applied it).
//   node check_live_actuators.mjs PIVOT SCENE ACTUATOR SCREENSHOT.png
// Exit 0 when every check passes, 1 when one fails, 77 without chromium.
import { check, runLiveCheck } from './browser.mjs';

const [pivot, sceneFile, actuator, screenshot] = process.argv.slice(2);
await runLiveCheck(pivot, sceneFile, screenshot, 'the live viewer drives actuators', async (page) => {
  const names = await page.evaluate(() => window.pivotLive.actuators());
  check(names.includes(actuator), `a slider for ${actuator} (sliders: ${names.join(', ')})`);
  // the slider at 80 % of its range, as a user's drag ends there
  const sent = await page.evaluate((name) => {
    const input = document.querySelector(`#pivot-live-actuators input[data-actuator="${name}"]`);
    input.value = Number(input.min) + 0.8 * (Number(input.max) - Number(input.min));
    input.dispatchEvent(new Event('change'));
    return Number(input.value);
  }, actuator);
  const index = names.indexOf(actuator);
  const applied = await page.waitForFunction((i, v) => {
    const f = window.pivotLive.state.lastFrame;
    return f && f.targets && Math.abs(f.targets[i] - v) < 1e-12;
  }, { timeout: 20000, polling: 50 }, index, sent).then(() => true, () => false);
  check(applied, `the frames carry ${actuator}'s new target ${sent}`);
});
