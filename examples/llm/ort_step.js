// One run of an ONNX graph on ONNX Runtime's CPU provider (onnxruntime-node) for check_llm.py.
// usage: node ort_step.js MODEL.onnx DIR   (DIR/feeds.json: [{name, type: "int64"|"int32"|"float32", dims, file}];
// writes DIR/ort_<output name>.raw as float32)
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');
(async () => {
  const [model, dir] = process.argv.slice(2);
  const sess = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const feeds = {};
  for (const f of JSON.parse(fs.readFileSync(path.join(dir, 'feeds.json')))) {
    const b = fs.readFileSync(f.file);
    const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    const data = f.type === 'int64' ? new BigInt64Array(ab) : f.type === 'int32' ? new Int32Array(ab) : new Float32Array(ab);
    feeds[f.name] = new ort.Tensor(f.type, data, f.dims);
  }
  const res = await sess.run(feeds);
  for (const [k, v] of Object.entries(res))
    fs.writeFileSync(path.join(dir, 'ort_' + k + '.raw'), Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength));
})().catch(e => { console.error(e.message); process.exit(1); });
