// A replay opened with view parameters after '#' (docs/viewer.md "Opening at a time and view"):
// #t= opens at that time, #follow= centres the body there (its projection at the view's centre),
// #camera= places the eye, and bad parameters are notes, not errors.
//   node check_view_parameters.mjs REPLAY.html BODY TIME
// Exit 0 when every check passes, 1 when one fails, 77 without chromium.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { check, failures, findChromium, launchBrowser, openPage } from './browser.mjs';

const [html, body, time] = process.argv.slice(2);
const url = pathToFileURL(resolve(html)).href;
const browser = await launchBrowser(findChromium());
try {
  const { page, errors } = await openPage(browser);
  const open = async (hash) => {
    await page.goto('about:blank');
    await page.goto(`${url}#${hash}`, { waitUntil: 'load', timeout: 120000 });
    await page.waitForFunction(() => window.pivotReplay !== undefined, { timeout: 120000 });
  };

  // without parameters the body is wherever the default camera puts it: off centre in general
  await open('');
  const free = await page.evaluate((b) => window.pivotReplay.projected(b), body);

  await open(`t=${time}&follow=${encodeURIComponent(body)}`);
  const t = await page.evaluate(() => window.pivotReplay.time());
  check(Math.abs(t - Number(time)) < 1e-12, `#t=${time} opens at t = ${t}`);
  const centred = await page.evaluate((b) => window.pivotReplay.projected(b), body);
  check(Math.hypot(...centred) < 1e-6,
    `#follow=${body} centres it (at ${centred.map((v) => v.toFixed(4))} in the view; ${free.map((v) => v.toFixed(3))} without)`);
  // it stays centred as the replay moves on
  await page.evaluate(() => window.pivotReplay.show(window.pivotReplay.times[window.pivotReplay.times.length - 1]));
  const later = await page.evaluate((b) => window.pivotReplay.projected(b), body);
  check(Math.hypot(...later) < 1e-6, `and keeps it centred at the last frame (${later.map((v) => v.toFixed(4))})`);

  // the camera looking from (0, -5, 0) at the origin: the origin is at the view's centre and a
  // point on +x is right of it
  await open('camera=0,-5,0,0,0,0');
  const origin = await page.evaluate(() => window.pivotReplay.project([0, 0, 0]));
  const right = await page.evaluate(() => window.pivotReplay.project([1, 0, 0]));
  const up = await page.evaluate(() => window.pivotReplay.project([0, 0, 1]));
  check(Math.hypot(...origin) < 1e-9 && right[0] > 0.05 && Math.abs(right[1]) < 1e-9
    && up[1] > 0.05 && Math.abs(up[0]) < 1e-9,
    `#camera=0,-5,0,0,0,0 looks at the origin along +y (origin ${origin}, x axis ${right}, z axis ${up})`);

  await open('t=abc&zoom=3&follow=nobody');
  const notes = await page.evaluate(() => window.pivotReplay.notes());
  check(notes.some((n) => n.startsWith('#t=abc')) && notes.some((n) => n.startsWith('#zoom'))
    && notes.some((n) => n.startsWith('#follow=nobody')), `bad parameters are notes: ${notes.join(' | ')}`);
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  check(false, `the replay opens with parameters: ${e.message}`);
} finally {
  await browser.closeAndClean();
}
process.exit(failures.length ? 1 : 0);
