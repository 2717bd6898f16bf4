// Runs Python code in MicroPython's webassembly port (a 32-bit build: 4-byte
// words, 16-byte GC blocks, as on the Pico) and reports what happened to the
// heap.  Driven by host/botboard/bench/heap32.py.
//
//   node heap32.mjs < SPEC.json
//   SPEC: {"heapsize": bytes, "dirs": [[host_dir, vfs_dir], ...], "code": "python",
//          "step": "name"}
//
// The code runs first; then, if "step" names a function it defined, that
// function is called until it returns a false value.  Each call comes from
// JavaScript, and this port collects garbage only between such calls: it
// cannot see the pointers held in WebAssembly locals, so within a call
// gc.collect() only asks for a collection and garbage stays until the call
// returns.  What the code prints goes to stdout; the last line is ours:
//   {"ok": bool, "error": str|null, "heap_total_start": n, "heap_total_end": n}
// This port adds heap areas when one is full (after a collection), where the
// Pico raises MemoryError: heap_total_end > heap_total_start says the code did
// not fit in `heapsize`.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const spec = JSON.parse(fs.readFileSync(0, "utf8"));
let captured = null; // set while reading mem_info's output
const out = (line) => (captured ? captured.push(line) : process.stdout.write(line + "\n"));
const mp = await loadMicroPython({ heapsize: spec.heapsize, stdout: out, stderr: out });

function copyTree(src, dest) {
  mp.FS.mkdirTree(dest);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = dest + "/" + entry.name;
    if (entry.isDirectory()) copyTree(from, to);
    else mp.FS.writeFile(to, fs.readFileSync(from));
  }
}

function heapTotal() {
  // mem_info prints "GC: total: N, used: ..."; N is the sum of the heap areas
  captured = [];
  mp.runPython("import micropython\nmicropython.mem_info()");
  const line = captured.find((l) => l.startsWith("GC: total:"));
  captured = null;
  return parseInt(line.split(":")[2], 10);
}

for (const [src, dest] of spec.dirs || []) copyTree(src, dest);
const start = heapTotal();
let error = null;
try {
  mp.runPython(spec.code);
  if (spec.step) {
    const step = mp.globals.get(spec.step);
    while (step()) {
      // one stage per call: the collection runs between calls
    }
  }
} catch (err) {
  error = err.name === "PythonError" ? `${err.type}: ${err.message.trim()}` : String(err);
}
const result = { ok: error === null, error, heap_total_start: start, heap_total_end: heapTotal() };
process.stdout.write(JSON.stringify(result) + "\n");
process.exit(0);
