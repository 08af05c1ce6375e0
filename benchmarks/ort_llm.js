#!/usr/bin/env node
// The example decoder of examples/llm generating on ONNX Runtime's CPU provider (onnxruntime-node; set
// NODE_PATH to the node_modules holding it), the loop qnn-llm-run runs on a QNN backend, on the same
// prefill.onnx (AR-N) and decode.onnx (AR-1): the prompt in chunks of N through the prefill graph (the
// cache's used slots copied into its past inputs first; what no longer fits its past goes through the
// decode graph), then greedy decoding one token at a time; after each step the new K/V entries are
// written into the decode graph's past inputs at their positions. Same attention mask (0 / -10000),
// positions, padding and argmax (first of equal maxima) as examples/llm/runner/qnn_llm_run.cpp.
// Outputs are bound to tensors allocated once; WARMUP untimed generations come first.
// Prints the ids and, in qnn-llm-run's words, prefill tokens/s, time to first token, decode tokens/s.
// usage: node ort_llm.js PREFILL.onnx DECODE.onnx --prompt_ids I,J,... [--max_tokens N] [--threads T]
//                        [--warmup W]
'use strict';
const ort = require('onnxruntime-node');

const MASK_NEG = -10000.0;  // train_llm.py's additive mask value

function options(args) {
  const o = { max_tokens: 64, threads: 1, warmup: 1, prompt_ids: null };
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const key = args[i].replace(/^--/, '');
    if (args[i].startsWith('--') && key in o && i + 1 < args.length) {
      const v = args[++i];
      o[key] = key === 'prompt_ids' ? v.split(',').map(Number) : Number(v);
    } else if (args[i].startsWith('--')) {
      throw new Error(`unknown option ${args[i]}`);
    } else {
      rest.push(args[i]);
    }
  }
  if (rest.length !== 2 || !o.prompt_ids || !o.prompt_ids.length || o.prompt_ids.some((x) => !Number.isInteger(x)) ||
      !(o.max_tokens >= 1))
    throw new Error('usage: node ort_llm.js PREFILL.onnx DECODE.onnx --prompt_ids I,J,... [--max_tokens N] ' +
                    '[--threads T] [--warmup W]');
  [o.prefill, o.decode] = rest;
  return o;
}

const ARRAYS = { float32: Float32Array, int64: BigInt64Array };

// One graph: its inputs and outputs as tensors allocated once (static shapes).
class Graph {
  constructor(session) {
    this.session = session;
    this.feeds = {};
    this.fetches = {};
    for (const [list, into] of [[session.inputMetadata, this.feeds], [session.outputMetadata, this.fetches]])
      for (const m of list) {
        if (!m.shape.every((d) => typeof d === 'number' && d > 0)) throw new Error(`${m.name}: shape not static`);
        const Kind = ARRAYS[m.type];
        if (!Kind) throw new Error(`${m.name}: type ${m.type} not handled`);
        into[m.name] = new ort.Tensor(m.type, new Kind(m.shape.reduce((a, b) => a * b, 1)), m.shape);
      }
    this.n = this.feeds.input_ids.dims[1];
    this.ctx = this.feeds.attention_mask.dims[3];
  }
}

class Runner {
  constructor(pre, dec) {
    this.pre = pre;
    this.dec = dec;
    if (dec.n !== 1) throw new Error('the decode graph must take one token (AR-1)');
    if (pre.ctx !== dec.ctx) throw new Error("the prefill and decode graphs' contexts differ");
    this.ctx = pre.ctx;
    this.layers = 0;
    while (`past_key_${this.layers}` in pre.feeds) this.layers++;
    const pk = pre.feeds.past_key_0.dims;
    this.heads = pk[1];
    this.headDim = pk[3];
    this.vocab = pre.fetches.logits.dims[2];
  }

  // count slots of every head: src[h][from + s] -> dst[h][to + s] ([1, heads, slots, head_dim] tensors)
  copySlots(src, from, dst, to, count) {
    const ss = src.dims[2], ds = dst.dims[2], hd = this.headDim;
    for (let h = 0; h < this.heads; h++) {
      const s0 = (h * ss + from) * hd, d0 = (h * ds + to) * hd;
      dst.data.set(src.data.subarray(s0, s0 + count * hd), d0);
    }
  }

  // ids (<= the graph's N) at positions start..; their K/V into the cache; the last one's logits
  async step(g, ids, start) {
    const n = g.n, ctx = this.ctx, past = ctx - n, m = ids.length;
    if (start > past) throw new Error(`the context (${ctx} tokens) is full`);
    const f = g.feeds;
    for (let i = 0; i < n; i++) {
      f.input_ids.data[i] = BigInt(i < m ? ids[i] : 0);
      f.position_ids.data[i] = BigInt(i < m ? start + i : 0);
    }
    const mask = f.attention_mask.data;
    for (let i = 0; i < n; i++)
      for (let c = 0; c < ctx; c++) {
        // past slots in use; the new tokens causally; a padding row sees itself only
        const open = c < start || (c >= past && (c - past <= i ? (i < m || c - past === i) : false));
        mask[i * ctx + c] = open ? 0.0 : MASK_NEG;
      }
    if (g !== this.dec && start > 0)
      for (let l = 0; l < this.layers; l++)
        for (const kind of ['key', 'value'])
          this.copySlots(this.dec.feeds[`past_${kind}_${l}`], 0, f[`past_${kind}_${l}`], 0, start);
    await g.session.run(f, g.fetches);
    const cacheSlots = ctx - 1;
    const keep = start >= cacheSlots ? 0 : Math.min(m, cacheSlots - start);
    for (let l = 0; l < this.layers && keep; l++)
      for (const kind of ['key', 'value'])
        this.copySlots(g.fetches[`new_${kind}_${l}`], 0, this.dec.feeds[`past_${kind}_${l}`], start, keep);
    return g.fetches.logits.data.subarray((m - 1) * this.vocab, m * this.vocab);
  }

  static argmax(row) {
    let best = 0;
    for (let v = 1; v < row.length; v++) if (row[v] > row[best]) best = v;
    return best;
  }

  async generate(prompt, maxTokens) {
    const now = () => Number(process.hrtime.bigint()) / 1e6;
    const t0 = now();
    let pos = 0, logits = null;
    while (pos < prompt.length) {  // chunks of the prefill graph's length
      const m = Math.min(this.pre.n, prompt.length - pos);
      const fits = pos <= this.ctx - this.pre.n;
      const chunk = prompt.slice(pos, pos + (fits ? m : 1));
      logits = await this.step(fits ? this.pre : this.dec, chunk, pos);
      pos += chunk.length;
    }
    const prefillMs = now() - t0;
    const ids = [Runner.argmax(logits)];
    const ttftMs = now() - t0;
    const t1 = now();
    while (ids.length < maxTokens && pos < this.ctx) {
      logits = await this.step(this.dec, [ids[ids.length - 1]], pos++);
      ids.push(Runner.argmax(logits));
    }
    return { ids, prefillMs, ttftMs, decodeMs: now() - t1 };
  }
}

async function main() {
  const o = options(process.argv.slice(2));
  const session = (file) => ort.InferenceSession.create(file, {
    executionProviders: ['cpu'], intraOpNumThreads: o.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all' });
  const r = new Runner(new Graph(await session(o.prefill)), new Graph(await session(o.decode)));
  for (const id of o.prompt_ids)
    if (id < 0 || id >= r.vocab) throw new Error(`prompt id ${id} is outside the vocabulary`);
  if (o.prompt_ids.length >= r.ctx) throw new Error('the prompt does not fit the context');
  for (let w = 0; w < o.warmup; w++) await r.generate(o.prompt_ids, o.max_tokens);
  const g = await r.generate(o.prompt_ids, o.max_tokens);
  const n = o.prompt_ids.length, steps = g.ids.length - 1;
  console.log(`# ONNX Runtime ${ort.env.versions ? ort.env.versions.common || '' : ''} CPU provider, ` +
              `intra-op threads ${o.threads}, AR-${r.pre.n}, context ${r.ctx}`);
  console.log(`prompt ids: ${o.prompt_ids.join(' ')}`);
  console.log(`ids: ${g.ids.join(' ')}`);
  console.log(`# prompt ${n} tokens: prefill ${g.prefillMs.toFixed(1)} ms (${(n * 1000 / g.prefillMs).toFixed(1)} ` +
              `tokens/s), time to first token ${g.ttftMs.toFixed(1)} ms`);
  if (steps)
    console.log(`# decode ${steps} tokens: ${g.decodeMs.toFixed(1)} ms (${(steps * 1000 / g.decodeMs).toFixed(1)} tokens/s)`);
}

main().catch((e) => { console.error(`ort_llm.js: ${e.message || e}`); process.exit(1); });
