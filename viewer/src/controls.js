// The control bar: play/pause, step by frame, the timeline scrubber, speed, follow a body, and
// the toggles for contacts, joints, trails and smooth surfaces.
const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 10, 30];

function el(tag, props = {}, text = '') {
  const e = document.createElement(tag);
  Object.assign(e, props);
  if (text) e.textContent = text;
  return e;
}

export function buildControls(bar, run, on) {
  const F = run.frames.count;
  const first = el('button', { id: 'pivot-first', title: 'first frame' }, '|◀');
  const back = el('button', { id: 'pivot-back', title: 'previous frame (←)' }, '◀❘');
  const play = el('button', { id: 'pivot-play', title: 'play / pause (space)' }, '▶');
  const fwd = el('button', { id: 'pivot-forward', title: 'next frame (→)' }, '❘▶');
  const scrub = el('input', { id: 'pivot-scrub', type: 'range', min: 0, max: F - 1, step: 1, value: 0 });
  const speed = el('select', { id: 'pivot-speed', title: 'playback speed (simulated / real time)' });
  for (const s of SPEEDS) speed.appendChild(el('option', { value: s, selected: s === 1 }, `${s}×`));
  const follow = el('select', { id: 'pivot-follow', title: 'keep a body in view' });
  follow.appendChild(el('option', { value: -1 }, 'camera: free'));
  for (const b of run.dynamic) follow.appendChild(el('option', { value: b }, `follow ${run.bodies[b].name}`));
  bar.append(first, back, play, fwd, scrub, speed, follow);

  first.onclick = () => on.scrub(0);
  back.onclick = () => on.step(-1);
  fwd.onclick = () => on.step(1);
  play.onclick = () => on.playPause();
  scrub.oninput = () => on.scrub(Number(scrub.value));
  speed.onchange = () => on.speed(Number(speed.value));
  follow.onchange = () => on.follow(Number(follow.value));

  const toggles = [
    ['contacts', 'contacts', run.contacts !== null,
      run.mode === 'animator' ? 'a key-framed animation has no contact forces' : 'no contacts.csv in the run'],
    ['joints', 'joints', run.joints !== null && run.joints.list.length > 0, 'no joints'],
    ['trails', 'trails', true, '', run.dynamic.length <= 6],
    ['surfaces', 'smooth surfaces', run.bodies.some((b) => b.surface), 'no smooth surfaces in the scene'],
    ['visual', 'visual geometry', run.bodies.some((b) => b.visual), 'no visual geometry in the scene (off: the collision shapes)'],
    ['translucent', 'see-through', true, '', false],
  ];
  for (const [key, label, available, why, initially = true] of toggles) {
    const box = el('input', { type: 'checkbox', id: `pivot-toggle-${key}`, checked: available && initially, disabled: !available });
    const l = el('label', { title: available ? '' : why });
    l.append(box, ` ${label}`);
    bar.appendChild(l);
    box.onchange = () => on.toggle(key, box.checked);
  }

  return {
    playPause: on.playPause,
    step: on.step,
    // follow body b (−1: free), as choosing it in the menu does
    follow(b) {
      follow.value = b;
      on.follow(b);
    },
    // the scrubber and the play button follow the replay
    show(frame, playing) {
      if (Number(scrub.value) !== frame) scrub.value = frame;
      play.textContent = playing ? '❚❚' : '▶';
    },
  };
}
