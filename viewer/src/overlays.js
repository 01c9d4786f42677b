// What is drawn over the bodies: contact points with their normals and impulse arrows, joint
// anchors, axes and impulse arrows, and the centre-of-mass trails. Buffers are sized for the
// busiest frame once; each frame only rewrites them.
import * as THREE from 'three';
import { CONTACT_VALUES, JOINT_VALUES } from './data.js';

const UP = new THREE.Vector3(0, 1, 0);

// the 99th percentile of the lengths of 3-vectors, so one spike does not shrink every arrow
function robustMax(lengths) {
  if (lengths.length === 0) return 1;
  const sorted = Float64Array.from(lengths).sort();
  const v = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
  return v > 0 ? v : sorted[sorted.length - 1] || 1;
}

// points (spheres), lines and arrow heads (cones), up to `capacity` of each
class Marks {
  constructor(capacity, color, pointRadius, headSize) {
    this.capacity = Math.max(1, capacity);
    this.group = new THREE.Group();
    // drawn over the bodies, so contacts under a box and joints inside links stay visible
    const material = new THREE.MeshBasicMaterial({ color, depthTest: false, transparent: true });
    this.points = new THREE.InstancedMesh(new THREE.SphereGeometry(pointRadius, 10, 6), material,
      this.capacity);
    this.heads = new THREE.InstancedMesh(
      new THREE.ConeGeometry(headSize * 0.45, headSize, 10).translate(0, -headSize / 2, 0),
      material, this.capacity);
    this.linePositions = new Float32Array(this.capacity * 6);
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.linePositions, 3));
    this.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true }));
    this.lines.frustumCulled = false;
    this.points.frustumCulled = false;
    this.heads.frustumCulled = false;
    for (const o of [this.points, this.heads, this.lines]) o.renderOrder = 10;
    this.group.add(this.points, this.heads, this.lines);
    this.matrix = new THREE.Matrix4();
    this.q = new THREE.Quaternion();
    this.dir = new THREE.Vector3();
    this.one = new THREE.Vector3(1, 1, 1);
    this.clear();
  }
  clear() {
    this.nPoints = 0;
    this.nHeads = 0;
    this.nLines = 0;
  }
  point(p) {
    if (this.nPoints >= this.capacity) return;
    this.matrix.makeTranslation(p.x, p.y, p.z);
    this.points.setMatrixAt(this.nPoints++, this.matrix);
  }
  line(a, b) {
    if (this.nLines >= this.capacity) return;
    this.linePositions.set([a.x, a.y, a.z, b.x, b.y, b.z], 6 * this.nLines++);
  }
  // a line from a to b with a cone at b; longer than `longest`, it is cut to that length
  arrow(a, b, longest = Infinity) {
    if (a.distanceTo(b) > longest) b.sub(a).setLength(longest).add(a);
    this.line(a, b);
    if (this.nHeads >= this.capacity) return;
    this.dir.subVectors(b, a);
    if (this.dir.lengthSq() === 0) return;
    this.q.setFromUnitVectors(UP, this.dir.normalize());
    this.matrix.compose(b, this.q, this.one);
    this.heads.setMatrixAt(this.nHeads++, this.matrix);
  }
  finish() {
    this.points.count = this.nPoints;
    this.heads.count = this.nHeads;
    this.points.instanceMatrix.needsUpdate = true;
    this.heads.instanceMatrix.needsUpdate = true;
    this.lines.geometry.setDrawRange(0, 2 * this.nLines);
    this.lines.geometry.getAttribute('position').needsUpdate = true;
  }
}

export class Overlays {
  // scale: a typical body size, m
  constructor(run, scale) {
    this.run = run;
    this.scale = scale;
    this.group = new THREE.Group();
    this.a = new THREE.Vector3();
    this.b = new THREE.Vector3();
    this.n = new THREE.Vector3();
    if (run.contacts) {
      const c = run.contacts;
      let most = 0;
      for (let f = 0; f < run.frames.count; f++) most = Math.max(most, c.offsets[f + 1] - c.offsets[f]);
      const impulses = [];
      for (let k = 0; k < c.values.length; k += CONTACT_VALUES) {
        const v = c.values;
        impulses.push(Math.hypot(v[k + 3] * v[k + 7] + v[k + 8], v[k + 4] * v[k + 7] + v[k + 9],
          v[k + 5] * v[k + 7] + v[k + 10]));
      }
      // glyphs shrink as contacts crowd: full size up to 8 contacts in the busiest frame, then
      // by √(8 / contacts), to 0.25 of a body size at 128 or more
      this.contactScale = scale * Math.min(1, Math.max(0.25, Math.sqrt(8 / Math.max(1, most))));
      const cs = this.contactScale;
      this.contactImpulseScale = (1.5 * cs) / robustMax(impulses);
      this.normals = new Marks(most, 0x2f6fd6, 0.08 * cs, 0.25 * cs);
      this.impulses = new Marks(most, 0xd8343a, 0.06 * cs, 0.3 * cs);
      this.contactGroup = new THREE.Group();
      this.contactGroup.add(this.normals.group, this.impulses.group);
      this.group.add(this.contactGroup);
    }
    if (run.joints && run.joints.list.length > 0) {
      const J = run.joints.list.length;
      const v = run.joints.values;
      const impulses = [];
      for (let k = 0; k < v.length; k += JOINT_VALUES) impulses.push(Math.hypot(v[k + 12], v[k + 13], v[k + 14]));
      this.jointImpulseScale = (1.5 * scale) / robustMax(impulses);
      this.anchors = new Marks(2 * J, 0xe08a1e, 0.15 * scale, 0.3 * scale);
      this.axes = new Marks(2 * J, 0x2aa84a, 0.08 * scale, 0.25 * scale);
      this.jointGroup = new THREE.Group();
      this.jointGroup.add(this.anchors.group, this.axes.group);
      this.group.add(this.jointGroup);
    }
    this.trails = new THREE.Group();
    this.trailLines = run.dynamic.map((body, k) => {
      const F = run.frames.count;
      const D = run.dynamic.length;
      const positions = new Float32Array(3 * F);
      for (let f = 0; f < F; f++) positions.set(run.frames.pose.subarray(7 * (f * D + k), 7 * (f * D + k) + 3), 3 * f);
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(positions, 3));
      const color = new THREE.Color().setHSL((body * 0.381966) % 1, 0.7, 0.4);
      // over the bodies: a trail inside a rolling body is still seen
      const line = new THREE.Line(g, new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true }));
      line.frustumCulled = false;
      line.renderOrder = 9;
      this.trails.add(line);
      return line;
    });
    this.group.add(this.trails);
  }

  // the contacts and joints of frame f, the trails up to time index f (and a fraction)
  update(f) {
    const run = this.run;
    if (this.contactGroup) {
      const c = run.contacts;
      this.normals.clear();
      this.impulses.clear();
      for (let k = c.offsets[f]; k < c.offsets[f + 1]; k++) {
        const v = c.values.subarray(k * CONTACT_VALUES, (k + 1) * CONTACT_VALUES);
        this.a.set(v[0], v[1], v[2]);
        this.n.set(v[3], v[4], v[5]);
        this.normals.point(this.a);
        this.normals.arrow(this.a, this.b.copy(this.a).addScaledVector(this.n, this.contactScale));
        // the impulse on A: λn n + the friction impulse
        this.n.multiplyScalar(v[7]).add(new THREE.Vector3(v[8], v[9], v[10]));
        if (this.n.lengthSq() > 0)
          this.impulses.arrow(this.a, this.b.copy(this.a).addScaledVector(this.n, this.contactImpulseScale),
            4 * this.contactScale);
      }
      this.normals.finish();
      this.impulses.finish();
    }
    if (this.jointGroup) {
      const J = run.joints.list.length;
      this.anchors.clear();
      this.axes.clear();
      for (let j = 0; j < J; j++) {
        const v = run.joints.values.subarray((f * J + j) * JOINT_VALUES, (f * J + j + 1) * JOINT_VALUES);
        this.a.set(v[0], v[1], v[2]);
        this.anchors.point(this.a);
        this.b.set(v[3], v[4], v[5]);
        if (this.b.distanceToSquared(this.a) > 1e-12) this.anchors.line(this.a, this.b);
        for (const o of [6, 9]) {
          this.n.set(v[o], v[o + 1], v[o + 2]);
          if (this.n.lengthSq() === 0) continue;
          this.axes.line(this.b.copy(this.a).addScaledVector(this.n, -this.scale),
            new THREE.Vector3().copy(this.a).addScaledVector(this.n, this.scale));
        }
        this.n.set(v[12], v[13], v[14]);
        if (this.n.lengthSq() > 0)
          this.anchors.arrow(this.a, this.b.copy(this.a).addScaledVector(this.n, this.jointImpulseScale),
            4 * this.scale);
      }
      this.anchors.finish();
      this.axes.finish();
    }
    for (const line of this.trailLines) line.geometry.setDrawRange(0, f + 1);
  }

  show(what, on) {
    const g = { contacts: this.contactGroup, joints: this.jointGroup, trails: this.trails }[what];
    if (g) g.visible = on;
  }
}
