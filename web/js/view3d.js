// The 3D view of lattices with 3 axes or more: a WebGL canvas (three.js) with the points of
// one 3D cross-section, stones as spheres, roots as tubes (the edges between stones of one
// colour: a root is a tree of one colour), the last move ringed, orbit and zoom, the layer
// nearest the camera faded, and clicks on points (raycasting) passed to onPick(name).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { latticeCoords } from './layout.js';

const COLOURS = {
  black: 0x1a1a1a, white: 0xf2f2ee, red: 0xd62828, blue: 0x2b59d9,
  green: 0x1f9d3a, yellow: 0xe9c21b, orange: 0xf07d10, purple: 0x8a2bbf,
};
const FADED = 0.18;

export class View3D {
  // canvas: <canvas id="view3d">; board: GET .../board (kind lattice, 3 axes or more).
  constructor(canvas, board, onPick) {
    this.board = board;
    this.dims = board.dims;
    this.hidden = this.dims.slice(3).map(() => 0);  // the cross-section's higher coordinates
    this.coords = board.points.map((_, v) => latticeCoords(v, this.dims));
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xdde4ec);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const light = new THREE.DirectionalLight(0xffffff, 2.2);
    light.position.set(3, 5, 8);
    this.scene.add(light);
    const size = Math.max(...this.dims.slice(0, 3));
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100 * size);
    this.camera.position.set(size * 0.75, size * 0.6, size * 1.75);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    this.fade = true;
    this.stoneGeo = new THREE.SphereGeometry(0.3, 20, 14);
    this.dotGeo = new THREE.SphereGeometry(0.06, 8, 6);
    this.pickGeo = new THREE.SphereGeometry(0.36, 8, 6);
    this.pickMat = new THREE.MeshBasicMaterial({ colorWrite: false, depthWrite: false });
    this.materials = new Map();
    this.group = new THREE.Group();
    this.scene.add(this.group);
    this.state = null;
    this.listenClicks(canvas, onPick);
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  resize() {
    const canvas = this.renderer.domElement;
    const w = canvas.clientWidth || 480;
    const h = canvas.clientHeight || 360;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  // A click (not a drag) on a point's pick sphere plays it.
  listenClicks(canvas, onPick) {
    let down = null;
    canvas.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
    canvas.addEventListener('pointerup', (e) => {
      if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 5) return;
      const name = this.pick(e.clientX, e.clientY);
      if (name) onPick(name);
    });
  }

  pick(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const hits = ray.intersectObjects(this.group.children.filter((o) => o.userData.pick));
    return hits.length ? hits[0].object.userData.point : null;
  }

  // Where point `name` is drawn on the page (client pixels), when it is in the shown
  // cross-section and a click there picks it; else null.
  screenPoint(name) {
    const v = this.board.points.indexOf(name);
    const at = v >= 0 ? this.place(v) : null;
    if (!at) return null;
    const p = at.clone().project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    const x = rect.left + ((p.x + 1) / 2) * rect.width;
    const y = rect.top + ((1 - p.y) / 2) * rect.height;
    return this.pick(x, y) === name ? { x, y } : null;
  }

  // Where vertex v is drawn (centred on the origin), or null when it is not in the shown
  // cross-section.
  place(v) {
    const c = this.coords[v];
    for (let i = 3; i < c.length; ++i) if (c[i] !== this.hidden[i - 3]) return null;
    const [w, h, d] = this.dims;
    return new THREE.Vector3(c[0] - (w - 1) / 2, c[1] - (h - 1) / 2, c[2] - (d - 1) / 2);
  }

  material(key, colour, faded) {
    const k = `${key}:${faded}`;
    if (!this.materials.has(k)) {
      const m = new THREE.MeshLambertMaterial({ color: colour, transparent: faded, opacity: faded ? FADED : 1, depthWrite: !faded });
      this.materials.set(k, m);
    }
    return this.materials.get(k);
  }

  setHidden(axis, value) {
    this.hidden[axis - 3] = value;
    if (this.state) this.update(this.state, this.last);
  }

  setFade(on) {
    this.fade = on;
    this.render();
  }

  // Draws the state's stones in the shown cross-section; last: the last move's point name.
  update(state, last) {
    this.state = state;
    this.last = last;
    const stoneOf = new Map();
    for (const [colour, names] of Object.entries(state.stones || {})) for (const n of names) stoneOf.set(n, colour);
    for (const obj of this.group.children) if (obj.userData.own) obj.geometry.dispose();
    this.group.clear();
    this.board.points.forEach((name, v) => this.addPoint(name, v, stoneOf.get(name)));
    this.addRoots(stoneOf);
    this.addLastMark(last);
    this.render();
  }

  addPoint(name, v, colour) {
    const at = this.place(v);
    if (!at) return;
    const pick = new THREE.Mesh(this.pickGeo, this.pickMat);
    pick.position.copy(at);
    pick.userData = { pick: true, point: name };
    const look = colour
      ? new THREE.Mesh(this.stoneGeo, this.material(colour, COLOURS[colour] ?? 0x888888, false))
      : new THREE.Mesh(this.dotGeo, this.material('dot', 0x55606c, false));
    look.position.copy(at);
    look.userData = { layered: true, key: colour || 'dot', colour: colour ? COLOURS[colour] ?? 0x888888 : 0x55606c, at };
    this.group.add(pick, look);
  }

  // A tube for every edge between two stones of one colour.
  addRoots(stoneOf) {
    const names = this.board.points;
    for (const [a, b] of this.board.edges) {
      const colour = stoneOf.get(names[a]);
      if (!colour || stoneOf.get(names[b]) !== colour) continue;
      const p = this.place(a);
      const q = this.place(b);
      if (!p || !q || p.distanceTo(q) > 1.01) continue;
      const tube = new THREE.Mesh(new THREE.TubeGeometry(new THREE.LineCurve3(p, q), 1, 0.09, 8), this.material(colour, COLOURS[colour] ?? 0x888888, false));
      tube.userData = { own: true, layered: true, key: colour, colour: COLOURS[colour] ?? 0x888888, at: p.clone().add(q).multiplyScalar(0.5) };
      this.group.add(tube);
    }
  }

  addLastMark(last) {
    const v = last ? this.board.points.indexOf(last) : -1;
    const at = v >= 0 ? this.place(v) : null;
    if (!at) return;
    this.ringMat ??= new THREE.MeshBasicMaterial({ color: 0xff5a1f });
    const ring = new THREE.Mesh(new THREE.TorusGeometry(0.42, 0.05, 8, 32), this.ringMat);
    ring.position.copy(at);
    ring.userData = { own: true };
    this.group.add(ring);
  }

  // Fades the layer nearest the camera: along the axis the camera looks down most directly,
  // the outermost layer on the camera's side.
  applyFade() {
    const dir = this.camera.position.clone().sub(this.controls.target);
    const comps = [dir.x, dir.y, dir.z].map(Math.abs);
    const axis = comps.indexOf(Math.max(...comps));
    const sign = Math.sign([dir.x, dir.y, dir.z][axis]);
    const front = (sign * (this.dims[axis] - 1)) / 2;
    for (const obj of this.group.children) {
      const u = obj.userData;
      if (!u.layered) continue;
      const faded = this.fade && this.dims[axis] > 1 && Math.abs(u.at.getComponent(axis) - front) < 0.26;
      obj.material = this.material(u.key, u.colour, faded);
    }
  }

  render() {
    if (!this.group) return;
    this.applyFade();
    this.renderer.render(this.scene, this.camera);
  }
}
