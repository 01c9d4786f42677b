// The live mode of the viewer (docs/viewer.md "Live runs"; docs/cli.md "pivot serve"): the page
// that `pivot serve` sends holds <script id="pivot-live">{"ws": "/ws"}</script>; this connects
// there, draws the bodies at the poses of each frame the server streams, and turns the mouse
// into messages: drag a body to pull it (pull, move, release), click with "throw" chosen (or
// shift-click) to throw a ball from the eye through the clicked pixel (Cline 2002 §4.7). A
// scene with actuators gets a slider per actuator that sets its target (set_target).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { buildBodies, showVisual } from './shapes.js';

function el(tag, props = {}, text = '') {
  const e = document.createElement(tag);
  Object.assign(e, props);
  if (text) e.textContent = text;
  return e;
}

// the bar: run controls (pause/resume, step, reset, time step, hybrid), the mouse mode, the
// throw speed, contacts, and take control
function buildBar(bar, send) {
  const pause = el('button', { id: 'pivot-live-pause', title: 'pause / resume (space)' }, '❚❚');
  const step = el('button', { id: 'pivot-live-step', title: 'one step (pauses)' }, '❘▶');
  const reset = el('button', { id: 'pivot-live-reset', title: 'back to the scene\'s start' }, 'reset');
  const dt = el('input', { id: 'pivot-live-dt', type: 'number', step: 'any', min: 0, title: 'time step h, s', style: 'width: 7em' });
  const setDt = el('button', { id: 'pivot-live-set-dt' }, 'set h');
  const hybrid = el('input', { type: 'checkbox', id: 'pivot-live-hybrid' });
  const hybridLabel = el('label', { title: 'the hybrid mode: reduced contact coordinates (docs/hybrid.md)' });
  hybridLabel.append(hybrid, ' hybrid');
  const mode = el('select', { id: 'pivot-live-mode', title: 'what the left mouse button does on a body' });
  mode.append(el('option', { value: 'drag' }, 'mouse: drag bodies'), el('option', { value: 'throw' }, 'mouse: throw balls'));
  const speed = el('input', { id: 'pivot-live-speed', type: 'range', min: 1, max: 40, step: 0.5, value: 8 });
  const speedText = el('span', { id: 'pivot-live-speed-text' }, '8 m/s');
  const speedLabel = el('label', { title: 'the speed of thrown balls' });
  speedLabel.append('throw ', speed, ' ', speedText);
  const contacts = el('input', { type: 'checkbox', id: 'pivot-live-contacts' });
  const contactsLabel = el('label');
  contactsLabel.append(contacts, ' contacts');
  const control = el('button', { id: 'pivot-live-control', title: 'drive the run when no one else does' }, 'take control');
  bar.append(pause, step, reset, dt, setDt, hybridLabel, mode, speedLabel, contactsLabel, control);

  const ui = { paused: false, mode, speed, contacts, control, hybrid, dt, planar: false };
  // a planar run (docs/planar.md) throws discs in its plane and has no hybrid mode
  ui.setPlanar = (planar) => {
    ui.planar = planar;
    hybridLabel.style.display = planar ? 'none' : '';
    mode.querySelector('option[value="throw"]').textContent = planar ? 'mouse: throw discs' : 'mouse: throw balls';
    speedLabel.title = planar ? 'the speed of thrown discs' : 'the speed of thrown balls';
  };
  pause.onclick = () => send({ type: ui.paused ? 'resume' : 'pause' });
  step.onclick = () => send({ type: 'step' });
  reset.onclick = () => send({ type: 'reset' });
  setDt.onclick = () => send({ type: 'set_dt', dt: Number(dt.value) });
  hybrid.onchange = () => send({ type: 'hybrid', on: hybrid.checked });
  speed.oninput = () => { speedText.textContent = `${speed.value} m/s`; };
  contacts.onchange = () => send({ type: 'contacts', on: contacts.checked });
  control.onclick = () => send({ type: 'take_control' });
  ui.show = (frame) => {
    ui.paused = frame.paused;
    pause.textContent = frame.paused ? '▶' : '❚❚';
    if (document.activeElement !== dt) dt.value = frame.dt;
    hybrid.checked = frame.hybrid;
  };
  return ui;
}

// the actuators' sliders: one per actuator of the "bodies" message (name, type, unit, min, max,
// target), each sending set_target while it moves; the frames' targets move them back when
// another viewer, a reset or the scene's own curve changes a target
function buildActuators(panel, send) {
  let sliders = [];
  let last = 0;
  const ui = {};
  ui.set = (actuators) => {
    panel.replaceChildren();
    sliders = actuators.map((a) => {
      const row = el('label', { className: 'pivot-live-actuator', title: `${a.type} actuator: its target, ${a.unit}` });
      const input = el('input', { type: 'range', min: a.min, max: a.max, step: (a.max - a.min) / 1000, value: a.target });
      input.dataset.actuator = a.name;
      const text = el('span', {}, `${Number(a.target).toPrecision(3)} ${a.unit}`);
      input.oninput = () => {
        text.textContent = `${Number(input.value).toPrecision(3)} ${a.unit}`;
        const now = performance.now();
        if (now - last < 20) return;
        last = now;
        send({ type: 'set_target', actuator: a.name, value: Number(input.value) });
      };
      input.onchange = () => send({ type: 'set_target', actuator: a.name, value: Number(input.value) });
      row.append(`${a.name} `, input, ' ', text);
      panel.append(row);
      return { input, text, unit: a.unit };
    });
    panel.style.display = actuators.length ? 'block' : 'none';
  };
  ui.show = (targets) => {
    if (!targets) return;
    sliders.forEach((s, i) => {
      if (document.activeElement === s.input || targets[i] === undefined) return;
      s.input.value = targets[i];
      s.text.textContent = `${Number(targets[i]).toPrecision(3)} ${s.unit}`;
    });
  };
  ui.names = () => sliders.map((s) => s.input.dataset.actuator);
  return ui;
}

export function startLive(config) {
  const app = el('div', { id: 'pivot-app', className: 'live' });
  app.innerHTML = `<div id="pivot-view"><div id="pivot-info"><h1></h1><div class="meta"></div></div>
    <div id="pivot-counter"></div><div id="pivot-tip"></div><div id="pivot-live-error"></div>
    <div id="pivot-live-actuators"></div></div>
    <div id="pivot-bar"></div>`;
  document.body.appendChild(app);
  const view = document.getElementById('pivot-view');
  const counter = document.getElementById('pivot-counter');
  const info = document.getElementById('pivot-info');
  const errorBox = document.getElementById('pivot-live-error');

  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  view.prepend(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xeef0f3);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x6b6f78, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, -4, 6);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  camera.up.set(0, 0, 1);
  const controls = new OrbitControls(camera, renderer.domElement);

  // the pull: a line from the grabbed point to the target, and the target as a small sphere
  const pullLine = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
    new THREE.LineBasicMaterial({ color: 0xd8343a }));
  const pullTarget = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), new THREE.MeshBasicMaterial({ color: 0xd8343a }));
  pullLine.visible = pullTarget.visible = false;
  scene.add(pullLine, pullTarget);
  const contactGroup = new THREE.Group();
  scene.add(contactGroup);

  const live = { frames: 0, step: -1, connected: false, inControl: false, viewer: -1, errors: [], bodies: 0,
    lastFrame: null, typical: 0.1 };
  let bodies = [];
  let run = null; // the last "bodies" message
  let framed = false; // the camera is placed on the first bodies
  let ws = null;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }
  const ui = buildBar(document.getElementById('pivot-bar'), send);
  const actuators = buildActuators(document.getElementById('pivot-live-actuators'), send);

  function showError(text) {
    live.errors.push(text);
    errorBox.textContent = text;
    errorBox.style.display = 'block';
    clearTimeout(showError.timer);
    showError.timer = setTimeout(() => { errorBox.style.display = 'none'; }, 4000);
  }

  function setBodies(message) {
    for (const b of bodies) scene.remove(b.group);
    run = message;
    ui.setPlanar(message.dimension === 2);
    actuators.set(message.actuators || []);
    const box = new THREE.Box3();
    const sizes = [];
    for (const b of message.bodies) {
      if (b.fixed && b.parts.some((p) => p.type === 'plane')) continue;
      box.expandByPoint(new THREE.Vector3(...b.position));
    }
    if (box.isEmpty()) box.expandByPoint(new THREE.Vector3());
    bodies = buildBodies(message, 1);
    bodies.forEach((b, i) => {
      if (message.bodies[i].fixed) return;
      const own = new THREE.Box3().setFromObject(b.group);
      if (!own.isEmpty()) sizes.push(own.getSize(new THREE.Vector3()).length() / 2);
    });
    sizes.sort((a, b) => a - b);
    live.typical = sizes.length ? sizes[sizes.length >> 1] : 0.1;
    const span = Math.max(box.getSize(new THREE.Vector3()).length(), 8 * live.typical);
    bodies = buildBodies(message, 4 * span);
    // a URDF robot's visual geometry, where it has some, instead of its collision shapes
    showVisual(bodies, true);
    for (const b of bodies) scene.add(b.group);
    live.bodies = bodies.length;
    pullTarget.scale.setScalar(0.08 * live.typical);
    if (!framed) {
      framed = true;
      const centre = box.getCenter(new THREE.Vector3());
      camera.near = span / 1000;
      camera.far = span * 100;
      camera.position.copy(centre).add(new THREE.Vector3(0.55, -1.0, 0.5).multiplyScalar(1.6 * span));
      controls.target.copy(centre);
      controls.update();
      camera.updateProjectionMatrix();
      info.querySelector('h1').textContent = `${message.scene} (live)`;
    }
  }

  function setFrame(f) {
    live.frames++;
    live.step = f.step;
    live.lastFrame = f;
    if (!run || f.bodies_version !== run.bodies_version) return;
    run.dynamic.forEach((b, k) => {
      const p = f.poses;
      const g = bodies[b].group;
      g.position.set(p[7 * k], p[7 * k + 1], p[7 * k + 2]);
      g.quaternion.set(p[7 * k + 4], p[7 * k + 5], p[7 * k + 6], p[7 * k + 3]);
    });
    pullLine.visible = pullTarget.visible = f.pull !== null;
    if (f.pull) {
      pullLine.geometry.setFromPoints([new THREE.Vector3(...f.pull.point), new THREE.Vector3(...f.pull.target)]);
      pullTarget.position.set(...f.pull.target);
    }
    contactGroup.clear();
    if (f.contacts) {
      const points = [];
      for (let i = 0; i < f.contacts.length; i += 7) {
        const p = new THREE.Vector3(f.contacts[i], f.contacts[i + 1], f.contacts[i + 2]);
        const n = new THREE.Vector3(f.contacts[i + 3], f.contacts[i + 4], f.contacts[i + 5]);
        points.push(p, p.clone().addScaledVector(n, live.typical));
      }
      contactGroup.add(new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(points),
        new THREE.LineBasicMaterial({ color: 0x2a6fd6 })));
    }
    ui.show(f);
    actuators.show(f.targets);
    const state = f.failed ? 'failed: reset' : f.paused ? 'paused' : `real-time factor ${f.rtf.toFixed(2)}`;
    counter.textContent = `step ${f.step} · t = ${f.t.toFixed(3)} s · h = ${f.dt} s · ${state}`;
    dirty = true;
  }

  function setControl(m) {
    live.inControl = m.in_control;
    live.viewer = m.viewer;
    ui.control.style.display = m.in_control ? 'none' : '';
    info.querySelector('.meta').textContent = m.in_control
      ? `you drive: drag a body to pull it; choose "throw" (or shift-click) to throw ${ui.planar ? 'discs' : 'balls'}`
      : m.controller >= 0 ? `watching: viewer ${m.controller} drives` : 'watching: no one drives (take control)';
  }

  function connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${config.ws}`;
    ws = new WebSocket(url);
    ws.onopen = () => { live.connected = true; };
    ws.onclose = () => {
      live.connected = false;
      counter.textContent = 'disconnected from the server';
    };
    ws.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === 'frame') setFrame(m);
      else if (m.type === 'bodies') setBodies(m);
      else if (m.type === 'control') setControl(m);
      else if (m.type === 'error') showError(m.message);
    };
  }

  // ---- the mouse: drag a body (pull), or throw a ball
  const raycaster = new THREE.Raycaster();
  const ndc = new THREE.Vector2();
  const dragPlane = new THREE.Plane();
  let dragging = false;
  let lastMove = 0;
  function pick(e) {
    const r = renderer.domElement.getBoundingClientRect();
    ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
  }
  renderer.domElement.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !run) return;
    pick(e);
    if (e.shiftKey || ui.mode.value === 'throw') {
      // from the clicked pixel on the near plane, along the ray from the eye (Cline §4.7)
      const origin = new THREE.Vector3(ndc.x, ndc.y, -1).unproject(camera);
      const direction = raycaster.ray.direction.clone();
      send({ type: 'throw', origin: origin.toArray(), direction: direction.toArray(),
        speed: Number(ui.speed.value), radius: 0.5 * live.typical });
      e.preventDefault();
      return;
    }
    const hit = raycaster.intersectObjects(bodies.map((b) => b.group), true)
      .find((h) => h.object.userData.body !== undefined && h.object.visible && !run.bodies[h.object.userData.body].fixed);
    if (!hit) return; // the camera orbits
    const body = hit.object.userData.body;
    const group = bodies[body].group;
    const point = group.worldToLocal(hit.point.clone()); // the body's centre-of-mass frame
    dragPlane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(new THREE.Vector3()), hit.point);
    dragging = true;
    controls.enabled = false;
    renderer.domElement.setPointerCapture(e.pointerId);
    send({ type: 'pull', body: run.bodies[body].name, point: point.toArray(), target: hit.point.toArray() });
  });
  renderer.domElement.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const now = performance.now();
    if (now - lastMove < 20) return;
    lastMove = now;
    pick(e);
    const target = new THREE.Vector3();
    if (raycaster.ray.intersectPlane(dragPlane, target)) send({ type: 'move', target: target.toArray() });
  });
  const endDrag = () => {
    if (!dragging) return;
    dragging = false;
    controls.enabled = true;
    send({ type: 'release' });
  };
  renderer.domElement.addEventListener('pointerup', endDrag);
  renderer.domElement.addEventListener('pointercancel', endDrag);
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') send({ type: ui.paused ? 'resume' : 'pause' });
    else return;
    e.preventDefault();
  });

  let dirty = true;
  function resize() {
    const w = view.clientWidth;
    const h = view.clientHeight;
    renderer.setSize(w, h);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    dirty = true;
  }
  window.addEventListener('resize', resize);
  controls.addEventListener('change', () => { dirty = true; });
  function tick() {
    if (dirty) {
      renderer.render(scene, camera);
      dirty = false;
    }
    requestAnimationFrame(tick);
  }
  resize();
  requestAnimationFrame(tick);
  connect();

  // for tests: the state, a body's centre on the page, and the picture's statistics
  window.pivotLive = {
    state: live,
    send,
    // `offset`: a point in the body's frame (default its centre of mass)
    screenOf(name, offset = [0, 0, 0]) {
      const i = run ? run.bodies.findIndex((b) => b.name === name) : -1;
      if (i < 0) return null;
      const p = bodies[i].group.localToWorld(new THREE.Vector3(...offset)).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    // the actuators that have a slider, by name
    actuators: () => actuators.names(),
    nameOf(index) {
      return run && run.bodies[index] ? run.bodies[index].name : null;
    },
    position(name) {
      const i = run ? run.bodies.findIndex((b) => b.name === name) : -1;
      return i < 0 ? null : bodies[i].group.position.toArray();
    },
    variance() {
      renderer.render(scene, camera);
      const gl = renderer.getContext();
      const w = gl.drawingBufferWidth;
      const h = gl.drawingBufferHeight;
      const px = new Uint8Array(4 * w * h);
      gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
      let sum = 0;
      let sq = 0;
      for (let i = 0; i < w * h; i++) {
        const l = 0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2];
        sum += l;
        sq += l * l;
      }
      const mean = sum / (w * h);
      return sq / (w * h) - mean * mean;
    },
  };
}
