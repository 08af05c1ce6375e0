#!/usr/bin/env node
// Latency of one ONNX model on ONNX Runtime's CPU execution provider (onnxruntime-node; set NODE_PATH
// to the node_modules holding it, e.g. build/ortnode/node_modules from scripts/install-deps.sh).
// Inputs: uniform in [-1, 1) (integers: 0..99) from a seeded xorshift32, symbolic dims = 1.
// Outputs are bound to tensors allocated once, so the timed runs exclude output allocation.
// WARMUP untimed runs, then RUNS timed ones; prints one line
//   <model> threads=T runs=R median_ms=M min_ms=A max_ms=B mean_ms=C
// With --serve 1 (benchmarks/lockstep_vs_ort.py): after the warmup prints "ready", then runs once per
// line read from stdin and prints that run's milliseconds; ends at the end of stdin.
// usage: node ort_run.js MODEL.onnx [--threads T] [--runs R] [--warmup W] [--seed S] [--serve 1]
'use strict';
const ort = require('onnxruntime-node');
const path = require('path');

function options(args) {
  const o = { threads: 1, runs: 20, warmup: 3, seed: 1, serve: 0 };
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const key = args[i].replace(/^--/, '');
    if (args[i].startsWith('--') && key in o && i + 1 < args.length) o[key] = Number(args[++i]);
    else if (args[i].startsWith('--')) throw new Error(`unknown option ${args[i]}`);
    else rest.push(args[i]);
  }
  if (rest.length !== 1 || !(o.runs >= 1)) {
    throw new Error('usage: node ort_run.js MODEL.onnx [--threads T] [--runs R] [--warmup W] [--seed S] [--serve 1]');
  }
  o.model = rest[0];
  return o;
}

function xorshift(seed) {
  let s = (seed >>> 0) || 0x9e3779b9;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const ARRAYS = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array,
                 uint8: Uint8Array, int8: Int8Array, bool: Uint8Array };

function tensorFor(meta, next) {
  const dims = meta.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
  const count = dims.reduce((a, b) => a * b, 1);
  const Kind = ARRAYS[meta.type];
  if (!Kind) throw new Error(`input/output ${meta.name}: type ${meta.type} not handled`);
  const data = new Kind(count);
  if (next) {
    for (let i = 0; i < count; i++) {
      const u = next();
      if (meta.type === 'float32' || meta.type === 'float64') data[i] = 2 * u - 1;
      else if (meta.type === 'int64') data[i] = BigInt(Math.floor(100 * u));
      else if (meta.type === 'bool') data[i] = u < 0.5 ? 1 : 0;
      else data[i] = Math.floor(100 * u);
    }
  }
  return new ort.Tensor(meta.type, data, dims);
}

async function main() {
  const o = options(process.argv.slice(2));
  const session = await ort.InferenceSession.create(o.model, {
    executionProviders: ['cpu'], intraOpNumThreads: o.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all' });
  const next = xorshift(o.seed);
  const feeds = {};
  for (const m of session.inputMetadata) feeds[m.name] = tensorFor(m, next);
  // Pre-bound outputs when every output shape is static; ORT allocates them otherwise.
  let fetches = {};
  for (const m of session.outputMetadata) {
    if (!m.isTensor || !m.shape.every((d) => typeof d === 'number' && d > 0)) { fetches = undefined; break; }
    fetches[m.name] = tensorFor(m, null);
  }
  const once = () => (fetches ? session.run(feeds, fetches) : session.run(feeds));
  for (let i = 0; i < o.warmup; i++) await once();
  if (o.serve) {
    console.log('ready');
    for await (const line of require('readline').createInterface({ input: process.stdin })) {
      if (line.trim() === '') continue;
      const t0 = process.hrtime.bigint();
      await once();
      console.log((Number(process.hrtime.bigint() - t0) / 1e6).toFixed(4));
    }
    await session.release();
    return;
  }
  const ms = [];
  for (let i = 0; i < o.runs; i++) {
    const t0 = process.hrtime.bigint();
    await once();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const mid = ms.length >> 1;
  const median = ms.length % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const f = (x) => x.toFixed(3);
  console.log(`${path.basename(o.model)} threads=${o.threads} runs=${o.runs} median_ms=${f(median)} ` +
              `min_ms=${f(ms[0])} max_ms=${f(ms[ms.length - 1])} mean_ms=${f(mean)}`);
  await session.release();
}

main().catch((e) => { console.error(`ort_run.js: ${e.message || e}`); process.exit(1); });
