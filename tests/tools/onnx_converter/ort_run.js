// Run an ONNX model on ONNX Runtime CPU with raw float32 inputs; write <output>.raw files.
// usage: node ort_run.js MODEL.onnx OUTDIR INPUT_NAME=FILE.raw[:d0,d1,...] ...
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');
(async () => {
  const [model, outDir, ...ins] = process.argv.slice(2);
  const sess = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const feeds = {};
  for (const spec of ins) {
    const [name, rest] = spec.split('=');
    const [file, dims] = rest.split(':');
    const buf = fs.readFileSync(file);
    const data = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
    feeds[name] = new ort.Tensor('float32', Float32Array.from(data), dims.split(',').map(Number));
  }
  const res = await sess.run(feeds);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [k, v] of Object.entries(res))
    fs.writeFileSync(path.join(outDir, k.replace(/[^A-Za-z0-9_]/g, '_') + '.raw'), Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength));
})().catch(e => { console.error(e.message); process.exit(1); });
