// The chip models behind the emulated Pico's pins, in MicroPython's
// webassembly port: firmware/bbfw/sim/chip_models.py, the very reader,
// tag, coupling and 74HC595 models the unix-port simulated board runs (one
// model, not a copy in JavaScript that could drift from it).
//
//   const models = await loadModels(dirs, config)
//   models.xfer(byte, nowUs) -> miso       models.latch(which, level, nowUs) -> columns
//   models.key(k, down) -> columns         models.control(line, nowUs) -> reply line
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

// The models' own heap (the emulated Pico's heap is its own, inside rp2040js):
// the reader field of the big arena with its coupling lists fits with room.
const MODELS_HEAP = 1024 * 1024;

function copyTree(mp, src, dest) {
  mp.FS.mkdirTree(dest);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = dest + "/" + entry.name;
    if (entry.isDirectory()) copyTree(mp, from, to);
    else if (entry.name.endsWith(".py") || entry.name.endsWith(".json")) mp.FS.writeFile(to, fs.readFileSync(from));
  }
}

export async function loadModels(dirs, config) {
  const out = (line) => process.stderr.write(`models: ${line}\n`);
  const mp = await loadMicroPython({ heapsize: MODELS_HEAP, stdout: out, stderr: out });
  for (const [src, dest] of dirs) copyTree(mp, src, dest);
  mp.runPython("import sys\nsys.path.insert(0, '/lib')");
  const module = mp.pyimport("bbfw.sim.chip_models");
  const models = module.ChipModels(JSON.stringify(config));
  return {
    xfer: (b, nowUs) => models.xfer(b, nowUs),
    latch: (which, level, nowUs) => models.latch(which, level, nowUs),
    key: (k, down) => models.key(k, down),
    control: (line, nowUs) => models.control(line, nowUs),
  };
}
