// The 3D view of lattices with 3 axes or more: a WebGL canvas (three.js) with the points of
// one 3D cross-section, stones as spheres, roots as tubes (the edges between stones of one
// colour: a root is a tree of one colour), the last move ringed, orbit and zoom, the layer
// nearest the camera faded, and clicks on points passed to onPick(name).
//
// Every look (the empty points' dots, each colour's stones, each colour's tubes) is drawn as
// instanced meshes, one opaque and one faded, so a frame costs a few draw calls whatever the
// board's size, and a new position only rewrites the instances' matrices: on a 15x15x15
// board an update took 0.54 s and a frame 62 ms with a mesh per object (6,751 of them).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { latticeCoords } from './layout.js';

const COLOURS = {
  black: 0x1a1a1a, white: 0xf2f2ee, red: 0xd62828, blue: 0x2b59d9,
  green: 0x1f9d3a, yellow: 0xe9c21b, orange: 0xf07d10, purple: 0x8a2bbf,
};
const OTHER = 0x888888;  // a colour not in COLOURS
const DOT = 0x55606c;
const FADED = 0.18;
const PICK_RADIUS = 0.36;  // a click this near a point's centre (in board units) picks it
const TUBE_RADIUS = 0.09;

// One look (a geometry in one colour) drawn at many places: two instanced meshes, one for the
// places in the faded layer and one for the others.
class Look {
  constructor(group, geometry, opaque, faded) {
    this.group = group;
    this.geometry = geometry;
    this.materials = [opaque, faded];
    this.meshes = [];
    this.places = [];  // [{matrix, at}]: where to draw it, and the point that decides its fading
    this.grow(16);
  }

  // Room for n places: new meshes when the old ones are too small.
  grow(n) {
    if (this.meshes.length && this.meshes[0].instanceMatrix.count >= n) return;
    const capacity = Math.max(n, 2 * (this.meshes[0]?.instanceMatrix.count ?? 0));
    for (const m of this.meshes) {
      this.group.remove(m);
      m.dispose();
    }
    this.meshes = this.materials.map((material) => {
      const mesh = new THREE.InstancedMesh(this.geometry, material, capacity);
      mesh.frustumCulled = false;  // the instances move; the geometry's bounds are not theirs
      mesh.count = 0;
      this.group.add(mesh);
      return mesh;
    });
  }

  setPlaces(places) {
    this.places = places;
    this.grow(places.length);
  }

  // Writes the places into the two meshes: those where faded(at) holds into the faded one.
  draw(faded) {
    const counts = [0, 0];
    for (const { matrix, at } of this.places) {
      const which = faded(at) ? 1 : 0;
      this.meshes[which].setMatrixAt(counts[which]++, matrix);
    }
    this.meshes.forEach((mesh, i) => {
      mesh.count = counts[i];
      mesh.instanceMatrix.needsUpdate = true;
    });
  }
}

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
    // The sphere round every point drawn (a stone and its ring stick out 0.47 from a point).
    this.radius = 0.5 * Math.hypot(...this.dims.slice(0, 3).map((d) => d - 1)) + 0.47;
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100 * size);
    this.camera.position.set(0.75, 0.6, 1.75);  // the direction it looks from; fitted in resize()
    this.fitted = null;  // the distance that fits the board at the canvas's present shape
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    this.fade = true;
    this.drawnFade = null;  // the fading the looks were last drawn with
    this.geometries = {
      stone: new THREE.SphereGeometry(0.3, 20, 14),
      dot: new THREE.SphereGeometry(0.06, 8, 6),
      // A tube of length 1 along y, centred on the origin: placed on an edge by its matrix.
      tube: new THREE.CylinderGeometry(TUBE_RADIUS, TUBE_RADIUS, 1, 8, 1, true),
    };
    this.group = new THREE.Group();
    this.scene.add(this.group);
    this.looks = new Map();
    this.ring = new THREE.Mesh(new THREE.TorusGeometry(0.42, 0.05, 8, 32), new THREE.MeshBasicMaterial({ color: 0xff5a1f }));
    this.ring.visible = false;
    this.scene.add(this.ring);
    this.shown = this.section();
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
    this.fit();
    this.render();
  }

  // Keeps the whole board in view at any shape of the canvas: the distance at which the
  // sphere round the board fits both the vertical and the horizontal field of view. A new
  // shape scales the camera's distance by as much as the fitting one changes, so a zoom the
  // user chose is kept relative to it.
  fit() {
    const half = THREE.MathUtils.degToRad(this.camera.fov / 2);
    const across = Math.atan(Math.tan(half) * this.camera.aspect);
    const distance = (1.04 * this.radius) / Math.sin(Math.min(half, across));
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    const scale = this.fitted ? distance / this.fitted : distance / offset.length();
    this.camera.position.copy(target).add(offset.multiplyScalar(scale));
    this.fitted = distance;
    this.controls.update();
  }

  // A click (not a drag) on a point plays it.
  listenClicks(canvas, onPick) {
    let down = null;
    canvas.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
    canvas.addEventListener('pointerup', (e) => {
      if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 5) return;
      const name = this.pick(e.clientX, e.clientY);
      if (name) onPick(name);
    });
  }

  // The point whose pick sphere (radius PICK_RADIUS around it) the ray through the client
  // pixel meets first, or null: the spheres are met by arithmetic, one pass over the section.
  pick(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const { origin, direction } = ray.ray;
    const to = new THREE.Vector3();
    let best = null;
    let nearest = Infinity;
    for (const { name, at } of this.shown) {
      to.subVectors(at, origin);
      const along = to.dot(direction);
      const off = to.lengthSq() - along * along;  // squared distance of the centre from the ray
      if (off > PICK_RADIUS * PICK_RADIUS) continue;
      const enter = along - Math.sqrt(PICK_RADIUS * PICK_RADIUS - off);
      if (enter > 0 && enter < nearest) [best, nearest] = [name, enter];
    }
    return best;
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

  // The points of the shown cross-section: [{v, name, at}].
  section() {
    const out = [];
    this.board.points.forEach((name, v) => {
      const at = this.place(v);
      if (at) out.push({ v, name, at });
    });
    return out;
  }

  look(kind, key, colour) {
    const k = `${kind}:${key}`;
    if (!this.looks.has(k)) {
      const material = (faded) => new THREE.MeshLambertMaterial({ color: colour, transparent: faded, opacity: faded ? FADED : 1, depthWrite: !faded });
      this.looks.set(k, new Look(this.group, this.geometries[kind], material(false), material(true)));
    }
    return this.looks.get(k);
  }

  setHidden(axis, value) {
    this.hidden[axis - 3] = value;
    this.shown = this.section();
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
    const places = new Map();  // look -> its places
    const put = (look, matrix, at) => {
      if (!places.has(look)) places.set(look, []);
      places.get(look).push({ matrix, at });
    };
    for (const { name, at } of this.shown) {
      const colour = stoneOf.get(name);
      const look = colour ? this.look('stone', colour, COLOURS[colour] ?? OTHER) : this.look('dot', 'dot', DOT);
      put(look, new THREE.Matrix4().makeTranslation(at.x, at.y, at.z), at);
    }
    this.placeRoots(stoneOf, put);
    for (const look of this.looks.values()) look.setPlaces(places.get(look) || []);
    this.placeRing(last);
    this.drawnFade = null;
    this.render();
  }

  // A tube on every edge between two stones of one colour.
  placeRoots(stoneOf, put) {
    const names = this.board.points;
    const up = new THREE.Vector3(0, 1, 0);
    for (const [a, b] of this.board.edges) {
      const colour = stoneOf.get(names[a]);
      if (!colour || stoneOf.get(names[b]) !== colour) continue;
      const p = this.place(a);
      const q = this.place(b);
      if (!p || !q || p.distanceTo(q) > 1.01) continue;  // a wrapped edge of a torus is not drawn
      const middle = p.clone().add(q).multiplyScalar(0.5);
      const along = q.clone().sub(p);
      const turn = new THREE.Quaternion().setFromUnitVectors(up, along.clone().normalize());
      const matrix = new THREE.Matrix4().compose(middle, turn, new THREE.Vector3(1, along.length(), 1));
      put(this.look('tube', colour, COLOURS[colour] ?? OTHER), matrix, middle);
    }
  }

  placeRing(last) {
    const v = last ? this.board.points.indexOf(last) : -1;
    const at = v >= 0 ? this.place(v) : null;
    this.ring.visible = Boolean(at);
    if (at) this.ring.position.copy(at);
  }

  // Which places are faded: along the axis the camera looks down most directly, the outermost
  // layer on the camera's side (none when fading is off or that axis has one layer).
  fading() {
    const dir = this.camera.position.clone().sub(this.controls.target);
    const comps = [dir.x, dir.y, dir.z].map(Math.abs);
    const axis = comps.indexOf(Math.max(...comps));
    const sign = Math.sign([dir.x, dir.y, dir.z][axis]);
    const front = (sign * (this.dims[axis] - 1)) / 2;
    const on = this.fade && this.dims[axis] > 1;
    return { key: on ? `${axis}:${sign}` : 'none', faded: (at) => on && Math.abs(at.getComponent(axis) - front) < 0.26 };
  }

  render() {
    if (!this.looks) return;
    const { key, faded } = this.fading();
    if (key !== this.drawnFade) {
      for (const look of this.looks.values()) look.draw(faded);
      this.drawnFade = key;
    }
    this.renderer.render(this.scene, this.camera);
  }
}
