// The Pivot viewer (docs/viewer.md): in a replay, reads the run that pivot inlined into replay.html
// (<script id="pivot-run">) and shows it: bodies at their recorded poses, interpolated between
// frames, contacts, joints and trails, the controls, and the plots of metrics.csv; on the page
// of `pivot serve`, the live mode (live.js).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import uPlotCss from 'uplot/dist/uPlot.min.css';
import css from './style.css';
import { decodeRun, locate } from './data.js';
import { buildBodies, defaultTranslucent, setTranslucent, showSurfaces, showVisual } from './shapes.js';
import { Overlays } from './overlays.js';
import { Plots } from './plots.js';
import { buildControls } from './controls.js';
import { startLive } from './live.js';

function addStyle(text) {
  const style = document.createElement('style');
  style.textContent = text;
  document.head.appendChild(style);
}

const median = (values) => {
  const v = Float64Array.from(values).sort();
  return v.length ? (v[(v.length - 1) >> 1] + v[v.length >> 1]) / 2 : 0;
};

// What the default camera frames, and a typical body size. The box holds the fixed bodies
// (planes aside) and the moving bodies during the run's first second, less the projectiles: a
// moving body more than four robust spreads (the median distance of the bodies from their
// median position) from the median, during the first second or at the run's end, such as a
// ball thrown in from afar or one falling away for good, is left out. A run whose bodies are all
// projectiles keeps them all.
function measure(run, bodies) {
  const F = run.frames.count;
  const D = run.dynamic.length;
  const times = run.frames.t;
  const p = new THREE.Vector3();
  const own = bodies.map((b) => {
    b.group.updateMatrixWorld(true);
    const box = new THREE.Box3();
    b.group.traverse((o) => {
      if (o.isMesh && !o.userData.plane) box.expandByObject(o);
    });
    return box;
  });
  const sizes = [];
  run.dynamic.forEach((b) => { if (!own[b].isEmpty()) sizes.push(own[b].getSize(new THREE.Vector3()).length() / 2); });
  sizes.sort((a, b) => a - b);
  const typical = Math.max(sizes.length ? sizes[sizes.length >> 1] : 0.1, 1e-3);

  const early = run.dynamic.map(() => new THREE.Box3());
  for (let f = 0; f < F && (f === 0 || times[f] <= times[0] + 1.0); f++)
    for (let k = 0; k < D; k++) early[k].expandByPoint(p.fromArray(run.frames.pose, 7 * (f * D + k)));
  // near[k]: body k is within four robust spreads of the bodies' median position
  const near = (points) => {
    const m = new THREE.Vector3(median(points.map((c) => c.x)), median(points.map((c) => c.y)),
      median(points.map((c) => c.z)));
    const reach = 4 * Math.max(median(points.map((c) => c.distanceTo(m))), typical);
    return points.map((c) => c.distanceTo(m) <= reach);
  };
  // a projectile is far from the others during the first second or at the end of the run
  const first = near(early.map((b) => b.getCenter(new THREE.Vector3())));
  const last = near(run.dynamic.map((b, k) => new THREE.Vector3().fromArray(run.frames.pose, 7 * ((F - 1) * D + k))));
  let kept = run.dynamic.map((b, k) => first[k] && last[k]);
  if (!kept.some(Boolean)) kept = kept.map(() => true);

  const box = new THREE.Box3();
  run.dynamic.forEach((b, k) => {
    if (!kept[k]) return;
    box.union(early[k]);
    // the body's own extent about its path (its shape at the first pose, moved along)
    if (!own[b].isEmpty()) {
      const half = own[b].getSize(new THREE.Vector3()).multiplyScalar(0.5);
      box.expandByPoint(early[k].min.clone().sub(half));
      box.expandByPoint(early[k].max.clone().add(half));
    }
  });
  run.bodies.forEach((body, i) => {
    if (body.fixed && !own[i].isEmpty()) box.union(own[i]);
  });
  if (box.isEmpty()) box.expandByPoint(new THREE.Vector3());
  return { box, typical, projectiles: run.dynamic.filter((b, k) => !kept[k]) };
}

// The camera that shows `box` whole in a view of aspect w/h, leaving the top tenth to the title:
// a perspective camera from the front right above (−y, looking along +y with z up) for 3-D runs,
// an orthographic one from the side (looking along +y, x to the right, z up) for planar runs.
function frameBox(camera, controls, box, aspect) {
  const centre = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3());
  if (camera.isOrthographicCamera) {
    const halfHeight = Math.max(size.z / 2, size.x / 2 / aspect, 1e-3) * 1.15 / 0.9;
    camera.userData.halfHeight = halfHeight;
    camera.left = -halfHeight * aspect;
    camera.right = halfHeight * aspect;
    camera.top = halfHeight;
    camera.bottom = -halfHeight;
    camera.zoom = 1;
    // the content sits a little low, clear of the title
    const target = centre.clone().add(new THREE.Vector3(0, 0, 0.1 * halfHeight));
    camera.position.copy(target).add(new THREE.Vector3(0, -Math.max(10 * halfHeight, size.y + 1), 0));
    controls.target.copy(target);
    camera.updateProjectionMatrix();
  } else {
    // the nearest eye on the line from the box's centre along `back` that sees all 8 corners
    // within 90 % of the half-width and 80 % of the half-height: a corner at offset o from the
    // centre is at depth D − o·back, so D ≥ o·back + |o·right| / tan(h) and likewise up
    const back = new THREE.Vector3(0.55, -1.0, 0.5).normalize();
    const right = new THREE.Vector3().crossVectors(new THREE.Vector3(0, 0, 1), back).normalize();
    const up = new THREE.Vector3().crossVectors(back, right);
    const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
    const tanH = tanV * aspect;
    let distance = 1e-3;
    const o = new THREE.Vector3();
    for (let c = 0; c < 8; c++) {
      o.set(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y, c & 4 ? box.max.z : box.min.z).sub(centre);
      const depth = o.dot(back);
      distance = Math.max(distance, depth + Math.abs(o.dot(right)) / (0.9 * tanH),
        depth + Math.abs(o.dot(up)) / (0.8 * tanV));
    }
    // the picture is moved down by a tenth of the view, clear of the title
    const target = centre.clone().addScaledVector(up, 0.1 * distance * tanV);
    camera.position.copy(target).addScaledVector(back, distance);
    controls.target.copy(target);
  }
  controls.update();
}

// URL parameters of a replay, after '#' (docs/viewer.md "Opening at a time and view"):
//   t=SECONDS            the time shown first
//   camera=x,y,z,tx,ty,tz  the eye and the point looked at, world, m
//   follow=NAME          keep that body in view
// an unknown key or a bad value is shown as a note, never an error
function applyViewParameters(hash, { run, seek, camera, controls, ui, state }) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return;
  const given = new Map(new URLSearchParams(text));
  const notes = [];
  for (const key of given.keys())
    if (!['t', 'camera', 'follow'].includes(key)) notes.push(`#${key}: not a view parameter (t, camera, follow)`);
  // the time first: a followed body is centred where it is then
  if (given.has('t')) {
    const t = Number(given.get('t'));
    if (given.get('t') !== '' && Number.isFinite(t)) seek(t);
    else notes.push(`#t=${given.get('t')}: not a time`);
  }
  if (given.has('camera')) {
    const v = given.get('camera').split(',').map(Number);
    if (v.length === 6 && v.every(Number.isFinite)) {
      camera.position.set(v[0], v[1], v[2]);
      controls.target.set(v[3], v[4], v[5]);
      controls.update();
    } else {
      notes.push(`#camera=${given.get('camera')}: expected x,y,z,tx,ty,tz`);
    }
  }
  if (given.has('follow')) {
    const index = run.bodies.findIndex((b) => b.name === given.get('follow'));
    if (index >= 0 && run.dynamic.includes(index)) ui.follow(index);
    else notes.push(`#follow=${given.get('follow')}: no moving body of that name`);
  }
  state.dirty = true;
  const info = document.getElementById('pivot-info');
  for (const note of notes) {
    const n = document.createElement('div');
    n.className = 'note';
    n.textContent = note;
    info.appendChild(n);
  }
}

function start() {
  addStyle(uPlotCss + css);
  const run = decodeRun(JSON.parse(document.getElementById('pivot-run').textContent));
  const app = document.createElement('div');
  app.id = 'pivot-app';
  app.innerHTML = `<div id="pivot-view"><div id="pivot-info"></div><div id="pivot-counter"></div>
    <div id="pivot-tip"></div></div><div id="pivot-side"><h2>Metrics per step</h2>
    <div id="pivot-plots"></div></div><div id="pivot-bar"></div>`;
  document.body.appendChild(app);
  const view = document.getElementById('pivot-view');

  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  view.prepend(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xeef0f3);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x6b6f78, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, -4, 6);
  scene.add(sun);

  // bodies first without planes' extent known: planes are rebuilt at the measured size
  let bodies = buildBodies(run, 1);
  const { box, typical, projectiles } = measure(run, bodies);
  const span = Math.max(box.getSize(new THREE.Vector3()).length(), 4 * typical);
  bodies = buildBodies(run, 3 * span);
  for (const b of bodies) scene.add(b.group);
  const overlays = new Overlays(run, typical);
  scene.add(overlays.group);

  // a planar run (docs/planar.md) is seen from the side, without perspective
  const planar = run.dimension === 2;
  const camera = planar
    ? new THREE.OrthographicCamera(-1, 1, 1, -1, span / 1000, span * 1000)
    : new THREE.PerspectiveCamera(40, 1, span / 1000, span * 100);
  camera.up.set(0, 0, 1);
  const controls = new OrbitControls(camera, renderer.domElement);
  // the wheel zooms towards the point under the cursor, not the view's centre
  controls.zoomToCursor = true;
  if (planar) controls.enableRotate = false;

  const times = run.frames.t;
  const D = run.dynamic.length;
  const state = { t: times[0], playing: false, speed: 1, follow: -1, dirty: true, frame: 0 };
  const pa = new THREE.Vector3();
  const pb = new THREE.Vector3();
  const qa = new THREE.Quaternion();
  const qb = new THREE.Quaternion();
  const followed = new THREE.Vector3();

  // the bodies at time t: positions interpolated linearly, orientations by slerp
  function pose(t) {
    const { i, alpha } = locate(times, t);
    const j = Math.min(i + 1, times.length - 1);
    const P = run.frames.pose;
    for (let k = 0; k < D; k++) {
      const a = 7 * (i * D + k);
      const b = 7 * (j * D + k);
      pa.set(P[a], P[a + 1], P[a + 2]);
      pb.set(P[b], P[b + 1], P[b + 2]);
      qa.set(P[a + 4], P[a + 5], P[a + 6], P[a + 3]);
      qb.set(P[b + 4], P[b + 5], P[b + 6], P[b + 3]);
      const g = bodies[run.dynamic[k]].group;
      g.position.lerpVectors(pa, pb, alpha);
      g.quaternion.slerpQuaternions(qa, qb, alpha);
    }
    return alpha < 0.5 ? i : j;
  }

  const plots = new Plots(document.getElementById('pivot-plots'), run, (t) => seek(t));
  const ui = buildControls(document.getElementById('pivot-bar'), run, {
    playPause: () => {
      if (!state.playing && state.t >= times[times.length - 1]) state.t = times[0];
      state.playing = !state.playing;
      state.last = undefined;
      state.dirty = true;
    },
    step: (d) => {
      state.playing = false;
      seek(times[Math.max(0, Math.min(times.length - 1, state.frame + d))]);
    },
    scrub: (f) => {
      state.playing = false;
      seek(times[f]);
    },
    speed: (s) => { state.speed = s; },
    // the followed body is centred (the camera keeps its direction and distance) and kept there
    follow: (b) => {
      state.follow = b;
      if (b >= 0) {
        pose(state.t);
        const p = bodies[b].group.position;
        camera.position.add(p.clone().sub(controls.target));
        controls.target.copy(p);
        controls.update();
        followed.copy(p);
      }
      state.dirty = true;
    },
    toggle: (what, on) => {
      if (what === 'surfaces') showSurfaces(bodies, on);
      else if (what === 'visual') showVisual(bodies, on);
      else if (what === 'translucent') bodies.forEach((b, i) => setTranslucent(b, on || seeThrough.includes(i)));
      else overlays.show(what, on);
      state.dirty = true;
    },
  });
  showSurfaces(bodies, true);
  showVisual(bodies, true);
  // trails of many bodies hide the bodies: shown by default for up to 6 moving bodies
  if (run.dynamic.length > 6) overlays.show('trails', false);
  // mesh bodies that hold another body are see-through; the toggle makes every body so
  const seeThrough = defaultTranslucent(run, bodies);
  for (const i of seeThrough) setTranslucent(bodies[i], true);

  const info = document.getElementById('pivot-info');
  const s = run.summary;
  const F = run.frames.count;
  info.innerHTML = `<h1></h1><div class="meta"></div>`;
  info.querySelector('h1').textContent = s.scene || 'run';
  const meta = [
    `${D} moving bod${D === 1 ? 'y' : 'ies'}, ${run.bodies.length - D} fixed`,
    `h = ${s.dt} s, ${s.steps} steps, ${F} frames`,
    s.final_state_hash ? `final hash ${s.final_state_hash}` : '',
  ];
  info.querySelector('.meta').textContent = meta.filter(Boolean).join(' · ');
  for (const note of run.notes) {
    const n = document.createElement('div');
    n.className = 'note';
    n.textContent = note;
    info.appendChild(n);
  }
  const counter = document.getElementById('pivot-counter');

  function seek(t) {
    state.t = Math.max(times[0], Math.min(times[times.length - 1], t));
    state.dirty = true;
  }

  let framed = false;
  function resize() {
    const w = view.clientWidth;
    const h = view.clientHeight;
    const aspect = w / Math.max(1, h);
    renderer.setSize(w, h);
    if (!framed) {
      frameBox(camera, controls, box, aspect);
      framed = true;
    }
    if (camera.isOrthographicCamera) {
      const half = camera.userData.halfHeight;
      camera.left = -half * aspect;
      camera.right = half * aspect;
    } else {
      camera.aspect = aspect;
    }
    camera.updateProjectionMatrix();
    plots.resize(document.getElementById('pivot-plots').clientWidth);
    state.dirty = true;
  }
  window.addEventListener('resize', resize);
  controls.addEventListener('change', () => { state.dirty = true; });

  // names on hover
  const tip = document.getElementById('pivot-tip');
  const raycaster = new THREE.Raycaster();
  const mouse = new THREE.Vector2();
  renderer.domElement.addEventListener('pointermove', (e) => {
    const r = renderer.domElement.getBoundingClientRect();
    mouse.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(mouse, camera);
    const hit = raycaster.intersectObjects(bodies.map((b) => b.group), true).find((h) => h.object.userData.body !== undefined && h.object.visible);
    if (!hit) {
      tip.style.display = 'none';
      return;
    }
    const body = run.bodies[hit.object.userData.body];
    tip.textContent = body.name + (body.fixed ? ' (fixed)' : '');
    tip.style.display = 'block';
    tip.style.left = `${e.clientX - r.left + 12}px`;
    tip.style.top = `${e.clientY - r.top + 12}px`;
  });
  renderer.domElement.addEventListener('pointerleave', () => { tip.style.display = 'none'; });

  function draw() {
    state.frame = pose(state.t);
    if (state.follow >= 0) {
      const p = bodies[state.follow].group.position;
      const d = p.clone().sub(followed);
      camera.position.add(d);
      controls.target.add(d);
      followed.copy(p);
      controls.update();
    }
    overlays.update(state.frame);
    plots.setTime(state.t);
    counter.textContent = `frame ${state.frame + 1} / ${F} · t = ${state.t.toFixed(3)} s`;
    ui.show(state.frame, state.playing);
    renderer.render(scene, camera);
    state.dirty = false;
  }

  function tick(now) {
    if (state.playing) {
      if (state.last !== undefined) state.t += ((now - state.last) / 1000) * state.speed;
      state.last = now;
      if (state.t >= times[times.length - 1]) {
        state.t = times[times.length - 1];
        state.playing = false;
      }
      state.dirty = true;
    }
    if (state.dirty) draw();
    requestAnimationFrame(tick);
  }
  resize();
  applyViewParameters(window.location.hash, { run, seek, camera, controls, ui, state });
  requestAnimationFrame(tick);

  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') ui.playPause();
    else if (e.key === 'ArrowRight') ui.step(1);
    else if (e.key === 'ArrowLeft') ui.step(-1);
    else return;
    e.preventDefault();
  });

  // for tests and the curious: the state, and the pixels of a fresh render
  const snapshots = {};
  window.pivotReplay = {
    frameCount: F,
    times,
    frame: () => state.frame,
    time: () => state.t,
    // shows the run at time t now (pivot render: seek, then capture the page)
    show(t) {
      state.playing = false;
      seek(t);
      draw();
      return state.frame;
    },
    // a body's position in normalized device coordinates (−1 … 1; 0, 0 is the view's centre)
    projected(name) {
      const i = run.bodies.findIndex((b) => b.name === name);
      if (i < 0) return null;
      draw();
      const p = bodies[i].group.position.clone().project(camera);
      return [p.x, p.y];
    },
    // a world point [x, y, z] in normalized device coordinates
    project(point) {
      draw();
      const p = new THREE.Vector3(...point).project(camera);
      return [p.x, p.y];
    },
    notes: () => Array.from(document.querySelectorAll('#pivot-info .note'), (n) => n.textContent),
    // the names of the bodies drawn see-through, and of those the default camera left out
    translucent: () => bodies.map((b, i) => i).filter((i) => {
      let t = false;
      bodies[i].group.traverse((o) => { if (o.isMesh && o.material.transparent && o.material.opacity < 1) t = true; });
      return t;
    }).map((i) => run.bodies[i].name),
    projectiles: () => projectiles.map((i) => run.bodies[i].name),
    camera: () => (camera.isOrthographicCamera ? 'orthographic' : 'perspective'),
    // the contact glyphs' size over the typical body size (1: a body size long)
    contactGlyphScale: () => (overlays.contactScale || 0) / typical,
    plotNotes: () => Array.from(document.querySelectorAll('.plot-unused'), (p) => p.textContent),
    // the view alone, w x h CSS pixels: no plots, no bar (pivot render)
    viewOnly() {
      document.getElementById('pivot-app').classList.add('view-only');
      framed = false;  // framed again for the new shape of the view
      resize();
      draw();
    },
    // renders, keeps the luminance of every pixel under `name`, returns its mean and variance
    snapshot(name) {
      draw();
      const gl = renderer.getContext();
      const w = gl.drawingBufferWidth;
      const h = gl.drawingBufferHeight;
      const pixels = new Uint8Array(4 * w * h);
      gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      const lum = new Uint8Array(w * h);
      let sum = 0;
      for (let i = 0; i < w * h; i++) {
        lum[i] = Math.round(0.299 * pixels[4 * i] + 0.587 * pixels[4 * i + 1] + 0.114 * pixels[4 * i + 2]);
        sum += lum[i];
      }
      const mean = sum / lum.length;
      let variance = 0;
      for (let i = 0; i < lum.length; i++) variance += (lum[i] - mean) * (lum[i] - mean);
      snapshots[name] = lum;
      return { width: w, height: h, pixels: lum.length, mean, variance: variance / lum.length };
    },
    // pixels whose luminance differs by more than `tolerance` between two snapshots
    differing(a, b, tolerance = 8) {
      let n = 0;
      for (let i = 0; i < snapshots[a].length; i++) if (Math.abs(snapshots[a][i] - snapshots[b][i]) > tolerance) n++;
      return n;
    },
  };
}

try {
  // `pivot serve` sends a page marked for the live mode (live.js); replay.html holds the run
  const liveConfig = document.getElementById('pivot-live');
  if (liveConfig) {
    addStyle(css);
    startLive(JSON.parse(liveConfig.textContent));
  } else {
    start();
  }
} catch (e) {
  console.error(e);
  const div = document.createElement('div');
  div.id = 'pivot-error';
  div.textContent = `The replay could not start: ${e.message}`;
  document.body.appendChild(div);
}
