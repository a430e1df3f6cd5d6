// core.js - a C core's WebAssembly build (engines/wasm.py), loaded with typed access to its
// structs. The same file runs in a page's Web Worker and in Node (the parity tests).
//
// Offsets come from the module itself: soloshop_layout[] holds every binding struct's size and
// field offsets as clang laid them out for wasm32, and GAME.layout.json names the entries, so
// nothing here knows a struct by heart.

const SIZES = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4, f64: 8, i64: 8, u64: 8 };

// The host side of core_platform.h: the module's only import.
const IMPORTS = { env: { now_seconds: () => performance.now() / 1000 } };

export async function loadCore(wasm, layout) {
  // wasm: a URL (fetched) or the module's bytes; layout: the parsed GAME.layout.json.
  let instance;
  if (typeof wasm === "string" || wasm instanceof URL) {
    const response = fetch(wasm);
    try {
      ({ instance } = await WebAssembly.instantiateStreaming(response, IMPORTS));
    } catch (error) {  // a server that does not send application/wasm
      const bytes = await (await fetch(wasm)).arrayBuffer();
      ({ instance } = await WebAssembly.instantiate(bytes, IMPORTS));
    }
  } else {
    ({ instance } = await WebAssembly.instantiate(wasm, IMPORTS));
  }
  return new Core(instance.exports, layout);
}

export class Core {
  constructor(exports, layout) {
    this.fn = exports;
    this.game = layout.game;
    const table = exports.soloshop_layout.value;
    let entries = 0;
    for (const s of Object.values(layout.structs)) {
      entries = Math.max(entries, s.size + 1, ...Object.values(s.fields).map((f) => f.index + 1));
    }
    const raw = new Uint32Array(exports.memory.buffer, table, entries).slice();
    this.structs = {};
    for (const [name, s] of Object.entries(layout.structs)) {
      const fields = {};
      for (const [field, f] of Object.entries(s.fields)) {
        fields[field] = { offset: raw[f.index], kind: f.kind, count: f.count };
      }
      this.structs[name] = { size: raw[s.size], fields };
    }
  }

  // A fresh view each time: memory.grow detaches the old buffer.
  get view() { return new DataView(this.fn.memory.buffer); }

  sizeof(struct) { return this.structs[struct].size; }

  alloc(bytes) {
    const ptr = this.fn.malloc(Math.max(1, bytes));
    if (!ptr) throw new Error(`${this.game} core: out of memory (${bytes} bytes)`);
    new Uint8Array(this.fn.memory.buffer, ptr, bytes).fill(0);
    return ptr;
  }

  free(ptr) { if (ptr) this.fn.free(ptr); }

  // Field of STRUCT at PTR (element I of an array field).
  get(struct, ptr, field, i = 0) {
    const f = this.field(struct, field, i);
    return read(this.view, ptr + f.offset + i * SIZES[f.kind], f.kind);
  }

  set(struct, ptr, field, value, i = 0) {
    const f = this.field(struct, field, i);
    write(this.view, ptr + f.offset + i * SIZES[f.kind], f.kind, value);
  }

  // The first N elements of an array field, as plain numbers.
  array(struct, ptr, field, n) {
    const f = this.field(struct, field, n - 1);
    const view = this.view, step = SIZES[f.kind], out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = read(view, ptr + f.offset + i * step, f.kind);
    return out;
  }

  field(struct, field, i) {
    const s = this.structs[struct];
    if (!s) throw new Error(`${this.game} core: no struct ${struct} in the layout`);
    const f = s.fields[field];
    if (!f) throw new Error(`${this.game} core: ${struct} has no field ${field}`);
    if (i < 0 || i >= f.count) throw new Error(`${this.game} core: ${struct}.${field}[${i}] out of range`);
    return f;
  }

  // Plain memory: N values of KIND at PTR (a buffer the caller allocated).
  read(ptr, kind, n = 1) {
    const view = this.view, out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = read(view, ptr + i * SIZES[kind], kind);
    return n === 1 ? out[0] : out;
  }

  write(ptr, kind, values) {
    const view = this.view;
    values.forEach((v, i) => write(view, ptr + i * SIZES[kind], kind, v));
  }

  // A C string (NUL-terminated or N bytes) at PTR.
  string(ptr, n) {
    const bytes = new Uint8Array(this.fn.memory.buffer, ptr, n);
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
  }
}

// uint64_t results cross as signed BigInt; this reads them as unsigned hex.
export const hex64 = (value) => BigInt.asUintN(64, BigInt(value)).toString(16).padStart(16, "0");

function read(view, at, kind) {
  switch (kind) {
    case "i8": return view.getInt8(at);
    case "u8": return view.getUint8(at);
    case "i16": return view.getInt16(at, true);
    case "u16": return view.getUint16(at, true);
    case "i32": return view.getInt32(at, true);
    case "u32": return view.getUint32(at, true);
    case "f32": return view.getFloat32(at, true);
    case "f64": return view.getFloat64(at, true);
    case "i64": return view.getBigInt64(at, true);
    case "u64": return view.getBigUint64(at, true);
  }
  throw new Error(`unknown kind ${kind}`);
}

function write(view, at, kind, v) {
  switch (kind) {
    case "i8": return view.setInt8(at, v);
    case "u8": return view.setUint8(at, v);
    case "i16": return view.setInt16(at, v, true);
    case "u16": return view.setUint16(at, v, true);
    case "i32": return view.setInt32(at, v, true);
    case "u32": return view.setUint32(at, v, true);
    case "f32": return view.setFloat32(at, v, true);
    case "f64": return view.setFloat64(at, v, true);
    case "i64": return view.setBigInt64(at, BigInt(v), true);
    case "u64": return view.setBigUint64(at, BigInt(v), true);
  }
  throw new Error(`unknown kind ${kind}`);
}
