// Runs an ONNX model on ONNX Runtime's CPU provider and writes every output as raw bytes:
// OUTDIR/<index>.raw plus OUTDIR/outputs.json ([{name, dims, type, file}]). qnn-accuracy-debugger
// hands it a copy of the model whose graph outputs are all its intermediate tensors.
// usage: node ort_intermediates.js MODEL.onnx OUTDIR INPUTS.json   (INPUTS.json: [{name, file, dims, type}])
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');
const ARRAYS = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
                 int8: Int8Array, bool: Uint8Array, float64: Float64Array };
(async () => {
  const [model, outDir, inputsJson] = process.argv.slice(2);
  const sess = await ort.InferenceSession.create(model, { executionProviders: ['cpu'],
                                                          graphOptimizationLevel: 'disabled' });
  const feeds = {};
  for (const i of JSON.parse(fs.readFileSync(inputsJson, 'utf8'))) {
    const Arr = ARRAYS[i.type];
    if (!Arr) throw new Error(`input ${i.name}: unsupported type ${i.type}`);
    const buf = fs.readFileSync(i.file);
    const copy = new Uint8Array(buf.length);
    copy.set(buf);
    feeds[i.name] = new ort.Tensor(i.type, new Arr(copy.buffer, 0, buf.length / Arr.BYTES_PER_ELEMENT), i.dims);
  }
  const res = await sess.run(feeds);
  fs.mkdirSync(outDir, { recursive: true });
  const index = [];
  Object.entries(res).forEach(([name, t], k) => {
    const file = `${k}.raw`;
    if (typeof t.data === 'object' && t.data.buffer)
      fs.writeFileSync(path.join(outDir, file), Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    else
      return;  // string tensors have no raw form
    index.push({ name, dims: t.dims, type: t.type, file });
  });
  fs.writeFileSync(path.join(outDir, 'outputs.json'), JSON.stringify(index));
})().catch(e => { console.error(e.message); process.exit(1); });
