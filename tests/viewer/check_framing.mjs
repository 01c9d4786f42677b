// What a replay shows first, scene by scene (docs/viewer.md "What it shows"): the default camera
// frames the bodies that matter, planar runs are seen from the side, contact glyphs shrink as
// contacts crowd, a fixed mesh body with another body inside is see-through, plots that do not
// apply say why, notes name no flag the user did not pass, and the wheel zooms towards the
// cursor. Saves a screenshot.
//   node check_framing.mjs REPLAY.html SCREENSHOT.png CHECK[,CHECK...]
// CHECK: character | planar | crowded | sparse | see_through | no_joints | animator | zoom |
//        sensors
// Exit 0 when every check passes, 1 when one fails, 77 without chromium.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { check, failures, findChromium, launchBrowser, openPage } from './browser.mjs';

// the checks come as one comma-separated argument or as several (run_check.cmake splits them)
const [html, screenshot, ...rest] = process.argv.slice(2);
const checks = rest.join(',');
const browser = await launchBrowser(findChromium());
try {
  const { page, errors } = await openPage(browser);
  await page.goto(pathToFileURL(resolve(html)).href, { waitUntil: 'load', timeout: 120000 });
  await page.waitForFunction(() => window.pivotReplay !== undefined, { timeout: 120000 });
  const ev = (f, ...a) => page.evaluate(f, ...a);
  const names = await ev(() => JSON.parse(document.getElementById('pivot-run').textContent).bodies.map((b) => b.name));

  for (const what of checks.split(',')) {
    if (what === 'character') {
      // the thrown balls are left out of the framing, and the character fills much of the view:
      // its bodies' centres span at least 40 % of the view's height at t = 0 (they spanned 7 %)
      const projectiles = await ev(() => window.pivotReplay.projectiles());
      check(projectiles.includes('ball_arm') && projectiles.includes('ball_chest'),
        `the thrown balls are not framed (${projectiles.join(', ')})`);
      const ys = [];
      for (const n of names.filter((n) => !n.startsWith('ball_'))) ys.push((await ev((n) => window.pivotReplay.projected(n), n))[1]);
      const span = (Math.max(...ys) - Math.min(...ys)) / 2;
      check(span >= 0.4 && Math.max(...ys) < 0.8, `the character spans ${(100 * span).toFixed(0)} % of the view's height, below the title (top at ${Math.max(...ys).toFixed(2)})`);
    } else if (what === 'planar') {
      check(await ev(() => window.pivotReplay.camera()) === 'orthographic', 'a planar run is drawn without perspective');
      const o = await ev(() => window.pivotReplay.project([0, 0, 0]));
      const x = await ev(() => window.pivotReplay.project([1, 0, 0]));
      const y = await ev(() => window.pivotReplay.project([0, 1, 0]));
      check(Math.abs(x[1] - o[1]) < 1e-9 && x[0] > o[0] && Math.hypot(y[0] - o[0], y[1] - o[1]) < 1e-9,
        'from the side: x to the right, y along the view');
      // every body whole in the view and clear of the title at every frame
      let worst = 0;
      const frames = await ev(() => window.pivotReplay.times.length);
      for (let f = 0; f < frames; f += Math.max(1, Math.floor(frames / 10))) {
        await ev((f) => window.pivotReplay.show(window.pivotReplay.times[f]), f);
        for (const n of names) {
          const p = await ev((n) => window.pivotReplay.projected(n), n);
          worst = Math.max(worst, Math.abs(p[0]), p[1]);
        }
      }
      check(worst < 0.8, `every body stays in view below the title (largest |x|, y in the view ${worst.toFixed(2)})`);
    } else if (what === 'crowded' || what === 'sparse') {
      const scale = await ev(() => window.pivotReplay.contactGlyphScale());
      // full size is 1 body size up to 8 contacts in a frame; a 10-level pyramid has hundreds
      check(what === 'crowded' ? scale <= 0.5 : scale >= 0.85,
        `contact glyphs are ${scale.toFixed(2)} body sizes (${what === 'crowded' ? 'at most 0.5 with hundreds of contacts' : 'at least 0.85 with about ten'})`);
    } else if (what === 'see_through') {
      const see = await ev(() => window.pivotReplay.translucent());
      check(see.length === 1 && see[0] === 'block', `the block holding the peg is see-through (${see.join(', ')})`);
    } else if (what === 'no_joints') {
      const notes = await ev(() => window.pivotReplay.plotNotes());
      check(notes.some((n) => n.includes('no joints')), `the joint-error plot says there are no joints (${notes.join(' | ')})`);
      const see = await ev(() => window.pivotReplay.translucent());
      check(see.length === 0, `no body is see-through (${see.join(', ')})`);
    } else if (what === 'sensors') {
      // tests/cli/sensors/sensors_scene.json: a chart per sensor of sensors.csv, in its order
      const titles = await ev(() => [...document.querySelectorAll('#pivot-plots .u-title')].map((e) => e.textContent));
      const sensors = titles.filter((t) => t.startsWith('sensor '));
      check(sensors.join(',') === 'sensor imu,sensor floor,sensor down,sensor swing,sensor servo',
        `a chart per sensor (${sensors.join(' | ')})`);
    } else if (what === 'animator') {
      const notes = await ev(() => window.pivotReplay.notes());
      check(!notes.some((n) => n.includes('--no-forces')), `no note names --no-forces (${notes.join(' | ')})`);
      const plots = await ev(() => window.pivotReplay.plotNotes());
      check(plots.some((n) => n.startsWith('energy') && n.includes('key frames')), `the energy plot says why it is empty (${plots.join(' | ')})`);
    } else if (what === 'zoom') {
      // a wheel step over a body that is off centre keeps that body under the cursor
      const body = names.find((n, i) => i > 0) || names[0];
      const before = await ev((n) => window.pivotReplay.projected(n), body);
      const box = await page.$eval('#pivot-view canvas', (c) => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });
      const px = box[0] + ((before[0] + 1) / 2) * box[2];
      const py = box[1] + ((1 - before[1]) / 2) * box[3];
      await page.mouse.move(px, py);
      await page.mouse.wheel({ deltaY: -300 });
      await new Promise((r) => setTimeout(r, 300));
      const after = await ev((n) => window.pivotReplay.projected(n), body);
      const moved = Math.hypot(after[0] - before[0], after[1] - before[1]);
      check(Math.hypot(...before) > 0.1 && moved < 0.02,
        `zooming at ${body} keeps it under the cursor (it moved ${moved.toFixed(3)} in the view, from ${before.map((v) => v.toFixed(2))})`);
    } else {
      check(false, `unknown check ${what}`);
    }
  }
  await page.screenshot({ path: screenshot });
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  check(false, `the replay runs: ${e.message}`);
} finally {
  await browser.closeAndClean();
}
process.exit(failures.length ? 1 : 0);
