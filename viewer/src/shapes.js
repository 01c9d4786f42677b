// three.js objects for the shapes of shapes.json (docs/viewer.md): one group per body in its
// centre-of-mass frame, holding its collision parts and, when the scene gives one, its smooth
// surface tessellated by pivot. Z is up; capsules and cylinders lie along the part's z axis.
import * as THREE from 'three';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';

const quat = (q) => new THREE.Quaternion(q[1], q[2], q[3], q[0]);
const vec = (v) => new THREE.Vector3(v[0], v[1], v[2]);

function meshGeometry(vertices, triangles) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(vertices, 3));
  g.setIndex(triangles);
  g.computeVertexNormals();
  return g;
}

// a checker texture for planes, so motion over them is visible
function checkerTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const c = canvas.getContext('2d');
  c.fillStyle = '#c9ccd1';
  c.fillRect(0, 0, 64, 64);
  c.fillStyle = '#b3b7be';
  c.fillRect(0, 0, 32, 32);
  c.fillRect(32, 32, 32, 32);
  const t = new THREE.CanvasTexture(canvas);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

// the geometry of one part in its own frame; planes are drawn as a square of side `extent`
function partGeometry(part, extent) {
  switch (part.type) {
    case 'sphere':
      return new THREE.SphereGeometry(part.radius, 32, 16);
    case 'box': {
      const h = part.half_extents;
      return new THREE.BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]);
    }
    case 'capsule':
      return new THREE.CapsuleGeometry(part.radius, 2 * part.half_length, 8, 24).rotateX(Math.PI / 2);
    case 'cylinder':
      return new THREE.CylinderGeometry(part.radius, part.radius, 2 * part.half_length, 32).rotateX(
        Math.PI / 2,
      );
    case 'ellipsoid': {
      const r = part.radii;
      return new THREE.SphereGeometry(1, 32, 16).scale(r[0], r[1], r[2]);
    }
    case 'convex': {
      const p = part.points;
      const points = [];
      for (let i = 0; i < p.length; i += 3) points.push(new THREE.Vector3(p[i], p[i + 1], p[i + 2]));
      return new ConvexGeometry(points);
    }
    case 'mesh':
      return meshGeometry(part.vertices, part.triangles);
    case 'plane': {
      // the square of the plane n·x = offset around the point nearest the origin
      const g = new THREE.PlaneGeometry(extent, extent);
      const uv = g.getAttribute('uv');
      for (let i = 0; i < uv.count; i++) uv.setXY(i, uv.getX(i) * extent * 2, uv.getY(i) * extent * 2);
      const n = vec(part.normal).normalize();
      g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), n));
      g.translate(n.x * part.offset, n.y * part.offset, n.z * part.offset);
      return g;
    }
    default:
      throw new Error(`unknown shape type ${part.type}`);
  }
}

// a distinct colour per body (golden-angle hues); fixed bodies grey
export function bodyColor(index, fixed) {
  if (fixed) return new THREE.Color(0.62, 0.64, 0.68);
  return new THREE.Color().setHSL((index * 0.381966) % 1, 0.55, 0.55);
}

// one group per body: {group, parts (Group), surface (Mesh or null), pickables}
export function buildBodies(run, extent) {
  let checker = null;
  return run.bodies.map((body, index) => {
    const group = new THREE.Group();
    group.name = body.name;
    const parts = new THREE.Group();
    const color = bodyColor(index, body.fixed);
    for (const part of body.parts) {
      let m = new THREE.MeshStandardMaterial({ color, roughness: 0.65, metalness: 0.05 });
      if (part.type === 'plane') {
        checker = checker || checkerTexture();
        m = new THREE.MeshStandardMaterial({ map: checker, roughness: 0.9, side: THREE.DoubleSide });
      }
      const mesh = new THREE.Mesh(partGeometry(part, extent), m);
      mesh.position.copy(vec(part.position));
      mesh.quaternion.copy(quat(part.quat_wxyz));
      mesh.userData.body = index;
      mesh.userData.plane = part.type === 'plane';
      parts.add(mesh);
    }
    group.add(parts);
    let surface = null;
    if (body.surface) {
      surface = new THREE.Mesh(
        meshGeometry(body.surface.vertices, body.surface.triangles),
        new THREE.MeshStandardMaterial({ color, roughness: 0.45, side: THREE.DoubleSide }),
      );
      surface.userData.body = index;
      group.add(surface);
    }
    // the visual geometry (a URDF link's <visual>) in its own colours, drawn instead of the parts
    let visual = null;
    if (body.visual && body.visual.length > 0) {
      visual = new THREE.Group();
      for (const part of body.visual) {
        const c = part.colour;
        const m = new THREE.MeshStandardMaterial({
          color: c ? new THREE.Color(c[0], c[1], c[2]) : color,
          roughness: 0.6,
          metalness: 0.05,
          transparent: c ? c[3] < 1 : false,
          opacity: c ? c[3] : 1,
        });
        const mesh = new THREE.Mesh(partGeometry(part, extent), m);
        mesh.position.copy(vec(part.position));
        mesh.quaternion.copy(quat(part.quat_wxyz));
        mesh.userData.body = index;
        visual.add(mesh);
      }
      group.add(visual);
    }
    group.position.copy(vec(body.position));
    group.quaternion.copy(quat(body.quat_wxyz));
    return { group, parts, surface, visual };
  });
}

// shows each body's smooth surface (when it has one) or its collision parts
export function showSurfaces(bodies, on) {
  for (const b of bodies) {
    if (!b.surface) continue;
    b.surface.visible = on;
    b.parts.visible = !on;
  }
}

// shows each body's visual geometry (when it has some) or its collision parts
export function showVisual(bodies, on) {
  for (const b of bodies) {
    if (!b.visual) continue;
    b.visual.visible = on;
    b.parts.visible = !on;
  }
}

// draws body i's parts see-through (opacity 0.35, not hiding what is behind or inside) or solid
export function setTranslucent(body, on) {
  body.group.traverse((o) => {
    if (!o.isMesh || o.userData.plane) return;
    o.material.transparent = on;
    o.material.opacity = on ? 0.35 : 1;
    o.material.depthWrite = !on;
    o.material.needsUpdate = true;
  });
}

// The bodies drawn see-through by default: a fixed mesh (or sdf) body whose bounds hold another
// body's centre in some frame of the run, such as a block with a peg going into its hole, so
// that what is inside shows. (Bounds at the first pose: a fixed body keeps it.)
export function defaultTranslucent(run, bodies) {
  const inside = [];
  const box = new THREE.Box3();
  const p = new THREE.Vector3();
  const F = run.frames.count;
  const D = run.dynamic.length;
  run.bodies.forEach((body, i) => {
    if (!body.fixed || !body.parts.some((part) => part.type === 'mesh')) return;
    bodies[i].group.updateMatrixWorld(true);
    box.makeEmpty();
    bodies[i].parts.traverse((o) => { if (o.isMesh) box.expandByObject(o); });
    let holds = false;
    for (let f = 0; f < F && !holds; f++)
      for (let k = 0; k < D && !holds; k++) holds = box.containsPoint(p.fromArray(run.frames.pose, 7 * (f * D + k)));
    if (holds) inside.push(i);
  });
  return inside;
}
