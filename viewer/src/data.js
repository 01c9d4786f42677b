// The run data that pivot inlines into replay.html (docs/viewer.md "The data in replay.html"):
// JSON with the large arrays as base64 of little-endian typed arrays.

export function decodeArray(base64, Type) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new Type(bytes.buffer);
}

// the run: bodies with their shapes, frames (times and poses), contacts, joints, metrics
export function decodeRun(json) {
  if (json.format !== 1) throw new Error(`unknown replay data format ${json.format}`);
  const frames = {
    count: json.frames.count,
    recorded: json.frames.recorded,
    stride: json.frames.stride,
    t: decodeArray(json.frames.t, Float64Array),
    pose: decodeArray(json.frames.pose, Float32Array), // per frame, per dynamic body: x y z qw qx qy qz
  };
  const run = {
    summary: json.summary,
    bodies: json.bodies,
    dynamic: json.dynamic,
    frames,
    notes: json.notes || [],
    dimension: json.dimension || 3,  // 2: a planar run, drawn from the side
    mode: json.summary.mode || 'dynamics',  // 'animator': pivot animate's run
    contacts: null,
    joints: null,
    sensors: [],  // sensors.csv: per sensor { name, t, fields: { field: values } }
    metrics: { rows: json.metrics.rows, recorded: json.metrics.recorded, stride: json.metrics.stride,
      failedSteps: json.metrics.failed_steps, columns: {} },
  };
  // the slot of each body in a frame's poses (-1: fixed, at its initial pose)
  run.slot = run.bodies.map(() => -1);
  run.dynamic.forEach((b, k) => { run.slot[b] = k; });
  if (json.contacts) {
    run.contacts = {
      offsets: decodeArray(json.contacts.offsets, Uint32Array),
      bodies: decodeArray(json.contacts.bodies, Int32Array),
      values: decodeArray(json.contacts.values, Float32Array), // x y z nx ny nz gap λn fx fy fz
    };
  }
  if (json.joints) {
    run.joints = { list: json.joints.list, values: decodeArray(json.joints.values, Float32Array) };
  }
  for (const s of json.sensors || []) {
    const fields = {};
    for (const [name, b64] of Object.entries(s.fields)) fields[name] = decodeArray(b64, Float32Array);
    run.sensors.push({ name: s.name, t: decodeArray(s.t, Float64Array), fields });
  }
  for (const [name, b64] of Object.entries(json.metrics.columns)) {
    run.metrics.columns[name] = decodeArray(b64, name === 't' ? Float64Array : Float32Array);
  }
  return run;
}

// the frame i with t[i] <= t < t[i + 1] and the fraction of the way to frame i + 1
export function locate(times, t) {
  const n = times.length;
  if (t <= times[0]) return { i: 0, alpha: 0 };
  if (t >= times[n - 1]) return { i: n - 1, alpha: 0 };
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return { i: lo, alpha: (t - times[lo]) / (times[hi] - times[lo]) };
}

// numbers per joint and frame in run.joints.values (joints.csv columns ax … motor_impulse)
export const JOINT_VALUES = 20;
// numbers per contact in run.contacts.values (contacts.csv columns x … fz)
export const CONTACT_VALUES = 11;
