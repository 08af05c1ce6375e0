"""Text generation with the example decoder of examples/llm (train_llm.py) on any QNN backend.

    import qnn.llm
    gen = qnn.llm.Generator("libQnnHtp.so", "llm.bin", "tokenizer.json")
    out = gen.generate(" your work.", max_tokens=32)           # greedy
    print(out.text, out.decode_tokens_per_s)
    gen.close()

The context binary holds the prefill (AR-N) and decode (AR-1) graphs (qnn-context-binary-generator
--model libprefill.so,libdecode.so; build() below makes it from train_llm.py's ONNX files). Every graph
input and output lives in registered shared memory (graph.register); the KV cache is the decode graph's
past_key_L / past_value_L inputs, into which each step writes only its new entries. Prompts longer than
the prefill graph go through it in chunks. The command line:

    python3 -m qnn.llm build  --bin BUILD/bin --model MODEL_DIR --backend libQnnHtp.so --out DIR [--fp16]
    python3 -m qnn.llm calibrate --backend libQnnCpu.so --context FLOAT.bin --tokenizer T --text FILE --out CAL
    python3 -m qnn.llm build  ... --quantize w8a8 --calibration CAL
    python3 -m qnn.llm run    --backend libQnnHtp.so --context DIR/llm.bin --tokenizer MODEL_DIR/tokenizer.json
                              --prompt TEXT [--max_tokens N] [--temperature T --top_k K --top_p P --seed S]
                              [--adapter SECTION.bin]

LoRA adapters (examples/llm/train_lora.py): build(..., lora_weights=LIST, adapters={name: safetensors}) makes
the LoRA branches' tensors updateable (qnn-onnx-converter --lora_weight_list) and each adapter a binary section
beside the binary (qnn-context-binary-generator --adapter_weight_config: DIR/llm_<name>.bin, the base values
DIR/llm_default_adapter.bin); Generator.apply_adapter(section) switches between them between prompts
(QnnContext_applyBinarySection on both graphs, the context stays loaded).
"""
import argparse
import ctypes as C
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

from . import safetensors as _safetensors
from .errors import run_tool
from ._core import Backend

MASK_NEG = -10000.0  # train_llm.py's additive mask value


def byte_level_chars():
    """The byte-level alphabet of Hugging Face tokenizers (GPT-2's): byte b -> one printable character. The
    printable Latin-1 bytes stand for themselves; the other 68 take code points 256, 257, ... in byte order."""
    out, extra = [], 0
    for b in range(256):
        if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255:
            out.append(chr(b))
        else:
            out.append(chr(256 + extra))
            extra += 1
    return out


class Tokenizer:
    """The byte-level BPE of tokenizer.json: text is split by the pre-tokenizer pattern and each word's bytes
    merged by their lowest-ranked pair, leftmost first. Two file formats: train_llm.py's (ids 0..255 the bytes,
    256 + r merge r; {"pretokenizer": regex, "merges": [[a, b], ...]}) and Hugging Face's tokenizer.json of a
    byte-level BPE model (export_genie.py writes one; its pre-tokenizer must be a Split regex, optionally in a
    Sequence with ByteLevel, since GPT-2's default pattern needs Unicode classes Python's re lacks)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if "model" in doc:
            self._from_hf(doc, path)
        else:
            self.word = re.compile(doc["pretokenizer"])
            self.pieces = [bytes([i]) for i in range(256)]
            self.merged = []
            for a, b in doc["merges"]:
                self.merged.append(len(self.pieces))
                self.pieces.append(self.pieces[a] + self.pieces[b])
            self.rank = {(a, b): r for r, (a, b) in enumerate(doc["merges"])}
            self.initial = list(range(256))

    def _from_hf(self, doc, path):
        m = doc["model"]
        if m.get("type") != "BPE":
            raise ValueError(f"{path}: only byte-level BPE models are supported (model type {m.get('type')})")
        pre = doc.get("pre_tokenizer") or {}
        steps = pre.get("pretokenizers", [pre]) if pre.get("type") == "Sequence" else [pre]
        split = [p for p in steps if p.get("type") == "Split"]
        if not split or "Regex" not in split[0].get("pattern", {}):
            raise ValueError(f"{path}: needs a Split pre-tokenizer with a regex")
        self.word = re.compile(split[0]["pattern"]["Regex"])
        back = {c: b for b, c in enumerate(byte_level_chars())}
        vocab = m["vocab"]
        self.pieces = [b""] * (max(vocab.values()) + 1)
        for s, i in vocab.items():
            if any(ch not in back for ch in s):
                raise ValueError(f"{path}: token {s!r} is not in the byte-level alphabet")
            self.pieces[i] = bytes(back[ch] for ch in s)
        self.initial = [vocab[c] for c in byte_level_chars()]
        self.rank, self.merged = {}, []
        for r, e in enumerate(m["merges"]):
            a, b = e.split(" ", 1) if isinstance(e, str) else e
            self.rank[(vocab[a], vocab[b])] = r
            self.merged.append(vocab[a + b])

    def encode(self, text):
        ids = []
        for w in self.word.findall(text):
            seq = [self.initial[c] for c in w.encode("utf-8")]
            while len(seq) > 1:
                r, i = min((self.rank.get(p, len(self.rank)), i) for i, p in enumerate(zip(seq, seq[1:])))
                if r == len(self.rank):
                    break
                seq[i:i + 2] = [self.merged[r]]
            ids += seq
        return ids

    def decode(self, ids):
        return b"".join(self.pieces[i] for i in ids).decode("utf-8", errors="replace")


def sample(logits, temperature=0.0, top_k=0, top_p=1.0, rng=None):
    """Greedy for temperature 0; else a draw from softmax(logits / temperature) over the top_k most likely
    tokens (0 = all), then the fewest of them whose probability reaches top_p."""
    if temperature <= 0:
        return int(np.argmax(logits))
    order = np.argsort(-logits, kind="stable")
    if 0 < top_k < len(order):
        order = order[:top_k]
    z = (logits[order].astype(np.float64) - logits[order[0]]) / temperature
    p = np.exp(z)
    p /= p.sum()
    if top_p < 1.0:
        keep = int(np.searchsorted(np.cumsum(p), top_p)) + 1
        order, p = order[:keep], p[:keep] / p[:keep].sum()
    rng = rng or np.random.default_rng()
    return int(order[rng.choice(len(order), p=p)])


class Result:
    def __init__(self, prompt_ids, ids, text, prefill_s, ttft_s, decode_s):
        self.prompt_ids, self.ids, self.text = prompt_ids, ids, text
        self.prefill_s, self.time_to_first_token_s, self.decode_s = prefill_s, ttft_s, decode_s
        self.prefill_tokens_per_s = len(prompt_ids) / prefill_s if prefill_s > 0 else float("inf")
        steps = len(ids) - 1
        self.decode_tokens_per_s = steps / decode_s if steps and decode_s > 0 else 0.0

    def summary(self):
        s = (f"prompt {len(self.prompt_ids)} tokens: prefill {self.prefill_s * 1e3:.1f} ms "
             f"({self.prefill_tokens_per_s:.1f} tokens/s), time to first token {self.time_to_first_token_s * 1e3:.1f} ms")
        if len(self.ids) > 1:
            s += f"; decode {len(self.ids) - 1} tokens: {self.decode_s * 1e3:.1f} ms ({self.decode_tokens_per_s:.1f} tokens/s)"
        return s


def _to_float(t, a):
    return ((a.astype(np.float64) + t.quant[1]) * t.quant[0]).astype(np.float32) if t.quant else a.astype(np.float32)


def _store(t, dst, values):
    """values (float or int) into the registered array dst of tensor t, quantized when t is."""
    if t.quant and dst.dtype.kind in "iu":
        info = np.iinfo(dst.dtype)
        values = np.clip(np.rint(np.asarray(values, np.float64) / t.quant[0]) - t.quant[1], info.min, info.max)
    dst[...] = np.asarray(values).astype(dst.dtype)


def _copy(t_src, src, t_dst, dst):
    """Values of tensor t_src's array view src into t_dst's view dst: the bytes when both have one datatype and
    encoding, else through float (the prefill and decode graphs' caches may be quantized differently)."""
    if src.dtype == dst.dtype and t_src.quant == t_dst.quant:
        dst[...] = src
    else:
        _store(t_dst, dst, _to_float(t_src, src))


class _BinaryBuffer(C.Structure):  # Qnn_BinaryBuffer_t
    _fields_ = [("data", C.c_void_p), ("dataSize", C.c_uint64)]


class _ContextBufferV1(C.Structure):  # QnnContext_BufferV1_t: memType, then the raw buffer or a mem handle
    class _U(C.Union):
        _fields_ = [("binaryBuf", _BinaryBuffer), ("memHandle", C.c_void_p)]
    _anonymous_ = ("u",)
    _fields_ = [("memType", C.c_int), ("u", _U)]


class _ContextBuffer(C.Structure):  # QnnContext_Buffer_t
    _fields_ = [("version", C.c_int), ("v1", _ContextBufferV1)]


_SECTION_UPDATABLE = 1  # QNN_CONTEXT_SECTION_UPDATABLE
_APPLY_SECTION = C.CFUNCTYPE(C.c_uint64, C.c_void_p, C.c_void_p, C.c_int, C.POINTER(_ContextBuffer), C.c_void_p,
                             C.c_void_p)


class Generator:
    """The prefill and decode graphs of a context binary on a backend, their I/O in registered memory."""

    def __init__(self, backend, context, tokenizer, prefill="prefill", decode="decode", system_library=None,
                 log_level="warn", rope_theta=10000.0):
        self.tokenizer = Tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer
        self.backend = backend if isinstance(backend, Backend) else Backend(backend, log_level=log_level,
                                                                          system_library=system_library)
        self._own_backend = not isinstance(backend, Backend)
        self.context = self.backend.load_context(context)
        g = self.context.graphs
        if prefill not in g or decode not in g:
            raise ValueError(f"{context} needs graphs '{prefill}' and '{decode}'; it holds {sorted(g)}")
        self.pre, self.dec = g[prefill], g[decode]
        self.info = {gr.name: {t.name: t for t in gr.inputs + gr.outputs} for gr in (self.pre, self.dec)}
        self.mem = {gr.name: {t.name: gr.register(t.name) for t in gr.inputs + gr.outputs} for gr in (self.pre, self.dec)}
        # Each graph's runs read and write the same registered memory: bound once, no per-step conversion.
        self.bound = {gr.name: gr.bind({t.name: self.mem[gr.name][t.name] for t in gr.inputs},
                                       outputs={t.name: self.mem[gr.name][t.name] for t in gr.outputs})
                      for gr in (self.pre, self.dec)}
        pi = self.info[self.pre.name]
        # A third: export_gqa.py's (com.microsoft.GroupQueryAttention; recognized by seqlens_k): the cache is
        # past_key_L [1, kv_heads, ctx, head_dim], present_key_L the same with the new rows at start..; the op
        # derives positions and mask from seqlens_k and total_sequence_length.
        self.gqa = "seqlens_k" in pi
        self.ar = pi["input_ids"].dims[1]
        self.ctx = pi["past_key_0"].dims[2] if self.gqa else pi["attention_mask"].dims[3]
        # Two interfaces: train_llm.py's (position_ids; past_key_L [1, kv_heads, past, head_dim] in, new_key_L out)
        # and Genie's (export_genie.py: rotary cos/sin inputs; past_key_L_in [1, kv_heads, head_dim, past] in,
        # past_key_L_out out, keys transposed). Genie's: the angles are position x rope_theta^(-j / rope_dim).
        self.genie = "past_key_0_in" in pi
        self.layers = sum(1 for n in pi if n.startswith("past_key_") and not n.endswith("_out"))
        self.vocab = pi["logits"].dims[2]
        self.rope = None
        if self.genie:
            half = pi["position_ids_cos"].dims[3]
            angle = np.outer(np.arange(self.ctx, dtype=np.float64),
                             1.0 / rope_theta ** (np.arange(half, dtype=np.float64) / half))
            self.rope = (np.cos(angle), np.sin(angle))
        if self.info[self.dec.name]["input_ids"].dims[1] != 1:
            raise ValueError("the decode graph must take one token (AR-1)")
        self.on_inputs = None  # on_inputs(graph name, {input name: array}) before every execute

    def _kv_names(self):
        return [f"{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]

    def _kv_in(self, s):
        return f"past_{s}_in" if self.genie else "past_" + s

    def _kv_out(self, s):
        return f"past_{s}_out" if self.genie else ("present_" if self.gqa else "new_") + s

    def _slots(self, s, a, b):
        """Index of cache slots a..b-1 of K/V tensor s: the last axis for Genie's transposed keys."""
        axis = 3 if self.genie and s.startswith("key") else 2
        return (slice(None),) * axis + (slice(a, b),)

    def _step(self, graph, ids, start):
        info, mem = self.info[graph.name], self.mem[graph.name]
        n = info["input_ids"].dims[1]
        past, m = self.ctx - n, len(ids)
        if start > past:
            raise ValueError(f"the context ({self.ctx} tokens) is full")
        _store(info["input_ids"], mem["input_ids"].array, [ids + [0] * (n - m)])
        pos = [start + i if i < m else 0 for i in range(n)]
        if self.gqa:  # the sequence's length after these n slots (a padded tail included), and that minus 1
            _store(info["seqlens_k"], mem["seqlens_k"].array, [start + n - 1])
            _store(info["total_sequence_length"], mem["total_sequence_length"].array, [start + n])
        elif self.genie:
            _store(info["position_ids_cos"], mem["position_ids_cos"].array, self.rope[0][pos][None, None])
            _store(info["position_ids_sin"], mem["position_ids_sin"].array, self.rope[1][pos][None, None])
        else:
            _store(info["position_ids"], mem["position_ids"].array, [pos])
        if not self.gqa:
            mask = np.full((1, 1, n, self.ctx), MASK_NEG, np.float32)
            mask[..., :start] = 0.0  # the past slots in use
            for i in range(n):  # the new tokens causally; a padding row sees itself only
                mask[0, 0, i, past:past + (i + 1 if i < m else 0)] = 0.0
                mask[0, 0, i, past + i] = 0.0
            _store(info["attention_mask"], mem["attention_mask"].array, mask)
        cache = self.mem[self.dec.name]
        if graph is not self.dec and start > 0:  # the cache's slots in use into this graph's past
            for s in self._kv_names():
                used = self._slots(s, 0, start)
                kin = self._kv_in(s)
                _copy(self.info[self.dec.name][kin], cache[kin].array[used], info[kin], mem[kin].array[used])
        if self.on_inputs:
            self.on_inputs(graph.name, {t.name: mem[t.name].array for t in graph.inputs})
        self.bound[graph.name].run()
        keep = max(0, min(m, self.ctx - 1 - start))
        for s in self._kv_names():  # new entries into the cache, in place
            kin, kout = self._kv_in(s), self._kv_out(s)
            new, dst = mem[kout], cache[kin]
            first = start if self.gqa else 0  # present holds the whole cache; new_* only the new rows
            src, to = self._slots(s, first, first + keep), self._slots(s, start, start + keep)
            _copy(info[kout], new.array[src], self.info[self.dec.name][kin], dst.array[to])
        return _to_float(info["logits"], mem["logits"].array[0, m - 1])

    def generate(self, prompt, max_tokens=64, temperature=0.0, top_k=0, top_p=1.0, seed=0, stream=None):
        """prompt: text or a list of token ids. stream(piece_bytes) is called for every new token."""
        ids = self.tokenizer.encode(prompt) if isinstance(prompt, str) else list(prompt)
        if not ids or len(ids) >= self.ctx:
            raise ValueError(f"the prompt has {len(ids)} tokens; it must have 1 to {self.ctx - 1}")
        for s in self._kv_names():  # a fresh sequence: the cache starts empty
            self.mem[self.dec.name][self._kv_in(s)].array[...] = 0
        rng = np.random.default_rng(seed)
        t0 = time.perf_counter()
        pos = 0
        while pos < len(ids):
            fits = pos <= self.ctx - self.ar
            chunk = ids[pos:pos + (self.ar if fits else 1)]
            logits = self._step(self.pre if fits else self.dec, chunk, pos)
            pos += len(chunk)
        t_prefill = time.perf_counter() - t0
        out = [sample(logits, temperature, top_k, top_p, rng)]
        t_first = time.perf_counter() - t0
        if stream:
            stream(self.tokenizer.pieces[out[-1]])
        t1 = time.perf_counter()
        while len(out) < max_tokens and pos < self.ctx:
            logits = self._step(self.dec, [out[-1]], pos)
            pos += 1
            out.append(sample(logits, temperature, top_k, top_p, rng))
            if stream:
                stream(self.tokenizer.pieces[out[-1]])
        return Result(ids, out, self.tokenizer.decode(out), t_prefill, t_first, time.perf_counter() - t1)

    def apply_adapter(self, section):
        """Applies a LoRA binary section (a path or bytes: what build(adapters=...) wrote, the base values'
        llm_default_adapter.bin included) to both graphs with QnnContext_applyBinarySection; the context stays
        loaded and the KV cache is untouched. Returns the seconds it took."""
        if isinstance(section, (str, os.PathLike)):
            with open(section, "rb") as f:
                section = f.read()
        data = C.create_string_buffer(bytes(section), len(section))
        buf = _ContextBuffer(version=1)  # QNN_CONTEXT_BUFFER_VERSION_1, memType QNN_CONTEXTMEMTYPE_RAW
        buf.v1.binaryBuf.data, buf.v1.binaryBuf.dataSize = C.cast(data, C.c_void_p), len(section)
        ptr = getattr(self.backend._lib.provider.table, "contextApplyBinarySection", None)
        if not ptr:
            raise ValueError("the backend does not implement QnnContext_applyBinarySection")
        apply = _APPLY_SECTION(ptr)
        t0 = time.perf_counter()
        for graph in (self.pre, self.dec):
            self.backend._check(apply(self.context._handle, graph._handle, _SECTION_UPDATABLE, C.byref(buf), None, None),
                                f"QnnContext_applyBinarySection (graph {graph.name})")
        return time.perf_counter() - t0

    def close(self):
        self.context.close()
        if self._own_backend:
            self.backend.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# The converter flags of each recipe: per-row (per output channel) weights; w4a16 adds the LPBQ overrides
# lpbq_overrides() writes (4-bit decoder weights in blocks), since the converter has no LPBQ flag. Plain
# --weight_bw 4 is not the recipe: it would also take RmsNorm's gamma to 4 bits, which the HTP refuses.
PER_ROW = ["--use_per_channel_quantization", "--use_per_row_quantization"]
QUANT_FLAGS = {"w8a8": ["--weight_bw", "8", "--act_bw", "8", *PER_ROW],
               "w8a16": ["--weight_bw", "8", "--act_bw", "16", *PER_ROW],
               "w4a16": ["--weight_bw", "8", "--act_bw", "16", *PER_ROW]}
LPBQ_BW, LPBQ_COMPRESSED = 8, 4   # 4-bit weights, block scales = channel scale x an integer in 1..16


def block_size(n):
    # 32 inputs a block where they divide evenly: against 64, 13 % less squared weight error on the example
    # model and its held-out top-1 agreement with fp32 229 -> 232 of 256 (docs in examples/llm/README.md).
    for b in (32, 16, 8):
        if n % b == 0:
            return b
    return n


def lpbq_entry(name, w):
    """AIMET 1.0.0 LPBQ entry of a MatMul weight w [in, out]: rows = output channels, blocks along the inputs."""
    wt = np.asarray(w, np.float64).T              # [out, in], the FullyConnected weight
    bs = block_size(wt.shape[1])
    w3 = wt.reshape(wt.shape[0], -1, bs)                               # [out, blocks, bs]
    top, qmax = 1 << (LPBQ_BW - LPBQ_COMPRESSED), (1 << (LPBQ_COMPRESSED - 1)) - 1
    ks = np.arange(1, top + 1, dtype=np.float64)[:, None, None]        # every integer a block may take
    widest = np.maximum(np.abs(w3).max(axis=(1, 2)) / qmax, 1e-12)      # the channel's largest block scale
    best_err, chan, ints = np.full(len(widest), np.inf), np.zeros(len(widest)), np.zeros(w3.shape[:2], int)
    # Each block's integer multiple of the channel scale: of all 16, the one with the smallest squared error
    # over the block's weights (the block's own max / 7 is not it: clipping a block's largest weight a little
    # often rounds the rest finer). The channel scale itself: its largest block's / 16, or a little less
    # (that block then clips), whichever leaves the channel the smaller error.
    for shrink in (1.0, 0.9, 0.8):
        c = widest * shrink / top                                       # [out]
        scales = ks * c[None, :, None]                                  # [16, out, 1]
        q = np.clip(np.round(w3[None] / scales[..., None]), -qmax - 1, qmax)
        err = ((q * scales[..., None] - w3[None]) ** 2).sum(-1)         # [16, out, blocks]
        pick, e = err.argmin(0), err.min(0).sum(-1)                     # [out, blocks], [out]
        better = e < best_err
        best_err, chan = np.where(better, e, best_err), np.where(better, c, chan)
        ints = np.where(better[:, None], pick + 1, ints)
    return {"name": name, "enc_type": "LPBQ", "dtype": "INT", "bw": LPBQ_BW, "compressed_bw": LPBQ_COMPRESSED,
            "block_size": bs, "is_sym": True, "scale": [float(v) for v in chan],
            "offset": [-(1 << (LPBQ_BW - 1))] * len(chan), "per_block_int_scale": [int(v) for v in ints.reshape(-1)]}


def lpbq_overrides(onnx_path, out_path, exclude=()):
    """LPBQ entries for the decoder layers' linear weights. The output head (the MatMul making `logits`) keeps
    8-bit per-row weights: 4-bit there cost the tiny model 6 of 56 held-out top-1 tokens (50/56 -> 56/56 with
    it 8-bit, max logit error 0.17 -> 0.06). `exclude`: weights left to the converter's recipe (the LoRA
    branches' A and B, which take 8-bit encodings that hold for every adapter)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(onnx_path)
    inits = {t.name: t for t in m.graph.initializer}
    entries, seen = [], set()
    for n in m.graph.node:
        if (n.op_type == "MatMul" and n.input[1] in inits and n.input[1] not in seen and n.input[1] not in exclude
                and "logits" not in n.output):
            w = numpy_helper.to_array(inits[n.input[1]])
            if w.ndim == 2:
                seen.add(n.input[1])
                entries.append(lpbq_entry(n.input[1], w))
    with open(out_path, "w") as f:
        json.dump({"version": "1.0.0", "activation_encodings": [], "param_encodings": entries}, f)
    return len(entries)




def _input_ranges(list_paths, keep):
    """{input name: (min, max)} over every file of the converter input lists at list_paths (name:=path
    entries) whose name keep(name) accepts, each range widened to hold 0."""
    ranges = {}
    for list_path in list_paths:
        with open(list_path) as f:
            for line in f:
                for item in line.split():
                    name, path = item.split(":=", 1)
                    if not keep(name):
                        continue
                    a = np.fromfile(path, np.float32)
                    lo, hi = ranges.get(name, (0.0, 0.0))
                    ranges[name] = (min(lo, float(a.min())), max(hi, float(a.max())))
    return ranges


def _asymmetric_entry(name, lo, hi, bitwidth):
    """An AIMET 1.0.0 per-tensor asymmetric activation entry over [lo, hi] (scale = range / (2^bw - 1))."""
    scale = (hi - lo) / ((1 << bitwidth) - 1) if hi > lo else 1.0
    return {"name": name, "enc_type": "PER_TENSOR", "dtype": "INT", "bw": bitwidth, "is_sym": False,
            "scale": [scale], "offset": [int(round(lo / scale))]}


# The 16-bit-activation recipes keep the KV cache at 8 bits, as device LLM deployments do: the attention's
# MatMuls read K and V at 8 bits anyway (the HTP's MatMul takes no unsigned 16-bit second input), so an 8-bit
# cache loses nothing more, halves the cache, and spares every step a conversion of the whole cache.
KV_CACHE_BW = {"w8a16": 8, "w4a16": 8}


def kv_cache_overrides(list_paths, bitwidth):
    """Activation encodings of train_llm.py's cache tensors (past_key_L / past_value_L in, new_key_L /
    new_value_L out) at `bitwidth` bits, one per cache shared by both graphs and by a cache input and its
    output (the runner copies the new entries' bytes into the cache): the union of the cache inputs' ranges
    in the calibration input lists at list_paths (a cache input holds earlier outputs), widened to hold 0.
    The converter narrows what writes a cache (RotaryEmbedding, the value projection) with a Convert after
    it, so only the stored entries lose the bits."""
    ranges = _input_ranges(list_paths, lambda n: n.startswith("past_"))
    entries = []
    for name, (lo, hi) in sorted(ranges.items()):
        entries += [_asymmetric_entry(n, lo, hi, bitwidth) for n in (name, "new_" + name[len("past_"):])]
    return entries


def genie_io_overrides(model_dir, calibration, bitwidth, out_path):
    """For graphs in the Genie runtime's layout (export_genie.py), activation encodings that make every graph
    input and output that Genie writes or copies quantize alike in both graphs: Genie refuses a model whose
    same-named tensors, or a cache input and its output (past_key_L_in / past_key_L_out), differ in scale or
    offset, since it copies the new entries' bytes into the cache as they are. The ranges are the union of
    the calibration inputs of both graphs (calibrate()'s raw files: a cache input holds earlier outputs),
    widened to hold 0; the rotary cos/sin get [-1, 1]. input_ids stays an integer, logits are left to the
    converter. AIMET 1.0.0 entries (asymmetric: scale = range / (2^bw - 1), offset = round(min / scale)).
    Writes them to out_path (as an overrides file) and returns the entries."""
    ranges = {}
    lists = [os.path.join(calibration, g + "_list.txt") for g in ("prefill", "decode")]
    for name, (lo, hi) in _input_ranges(lists, lambda n: n != "input_ids").items():
        stem = name[:-3] if name.endswith("_in") else name
        old_lo, old_hi = ranges.get(stem, (0.0, 0.0))
        ranges[stem] = (min(lo, old_lo), max(hi, old_hi))
    for name in ("position_ids_cos", "position_ids_sin"):
        ranges[name] = (-1.0, 1.0)
    entries = []
    for stem, (lo, hi) in sorted(ranges.items()):
        names = [stem + "_in", stem + "_out"] if stem.startswith("past_") else [stem]
        entries += [_asymmetric_entry(n, lo, hi, bitwidth) for n in names]
    with open(out_path, "w") as f:
        json.dump({"version": "1.0.0", "activation_encodings": entries, "param_encodings": []}, f)
    return entries


def calibrate(backend, context, tokenizer, text, out_dir, prompts=4, prompt_tokens=None, max_tokens=8,
              rope_theta=10000.0, adapters=()):
    """Calibration inputs for the quantizer: generates greedily on a float context binary from `prompts`
    stretches of `text` and writes every input each graph was given (raw files) and the input lists
    qnn-onnx-converter --input_list takes: out_dir/prefill_list.txt, out_dir/decode_list.txt. adapters:
    LoRA sections of the binary: the prompts run once on the base and once with each one applied."""
    lists = {}
    with Generator(backend, context, tokenizer, rope_theta=rope_theta) as gen:
        ids = gen.tokenizer.encode(text)
        n = prompt_tokens or gen.ar * 2 + 3  # more than one prefill chunk
        if len(ids) < n:
            raise ValueError(f"the calibration text has {len(ids)} tokens; it needs at least {n}")

        def record(graph, feeds):
            k = len(lists.setdefault(graph, []))
            d = os.path.join(out_dir, graph, str(k))
            os.makedirs(d, exist_ok=True)
            entries = []
            for name, a in feeds.items():
                path = os.path.join(d, name + ".raw")
                # float32 files, as the converter reads --input_list by default (ids and positions are small
                # integers, exact in float32); int32 bytes read as float32 would be ~0
                np.asarray(a, np.float32).tofile(path)
                entries.append(f"{name}:={path}")
            lists[graph].append(" ".join(entries))
        gen.on_inputs = record
        stride = max(1, (len(ids) - n) // max(1, prompts - 1))
        for section in [None, *adapters]:
            if section is not None:
                gen.apply_adapter(section)
            for p in range(prompts):
                gen.generate(ids[p * stride:p * stride + n], max_tokens=max_tokens)
    for graph, entries in lists.items():
        with open(os.path.join(out_dir, graph + "_list.txt"), "w") as f:
            f.write("\n".join(entries) + "\n")
    return {g: len(e) for g, e in lists.items()}


def _has_input(onnx_path, name):
    import onnx
    return any(i.name == name for i in onnx.load(onnx_path, load_external_data=False).graph.input)


def _is_genie_layout(onnx_path):
    """Whether an exported graph has the Genie runtime's tensor names (export_genie.py), from its inputs."""
    return _has_input(onnx_path, "past_key_0_in")


def build(bin_dir, model_dir, backend, out_dir, fp16=False, extension=None, quantize=None, calibration=None,
          lora_weights=None, adapters=None, kv_bw=None):
    """train_llm.py's prefill.onnx and decode.onnx -> one context binary out_dir/llm.bin with both graphs
    (their weights stored once), through qnn-onnx-converter --preserve_io, qnn-model-lib-generator and
    qnn-context-binary-generator from bin_dir. fp16 (HTP): the graphs compute in half precision (the HTP
    net-run extension's fp16_relaxed_precision; extension = its library, by default beside the backend).
    The HTP binary is made with the context config weight_sharing_enabled (as the vendor's LLM flows do).
    quantize ("w8a8", "w8a16", "w4a16"; calibration = the directory calibrate() wrote): the converter
    quantizes with those bit widths from the recorded inputs (fp16 is then ignored); graphs in the Genie
    runtime's layout get the shared encodings of genie_io_overrides() for the tensors Genie fills.
    kv_bw: the KV cache's bit width in train_llm.py's layout (kv_cache_overrides()); by default KV_CACHE_BW's
    for the recipe (8 for w8a16 / w4a16), else the activations'. Genie-layout and GroupQueryAttention graphs
    keep the activations' width.
    lora_weights: a file of the LoRA branches' constant names (train_lora.py's lora_weights.txt), made
    UPDATEABLE_STATIC tensors; adapters: {name: safetensors path, or (safetensors, AIMET encodings JSON)}, each
    written as the binary section out_dir/llm_<name>.bin (the base values: out_dir/llm_default_adapter.bin).
    Returns the binary's path."""
    if quantize and quantize not in QUANT_FLAGS:
        raise ValueError(f"quantize must be one of {sorted(QUANT_FLAGS)}")
    if quantize and not calibration:
        raise ValueError("quantize needs calibration inputs (calibrate())")
    genie = _is_genie_layout(os.path.join(model_dir, "decode.onnx"))
    if adapters and not lora_weights:
        raise ValueError("adapters need lora_weights (the tensors they replace)")
    def tool(*args):
        p = subprocess.run([os.path.join(bin_dir, args[0]), *args[1:]], capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"{' '.join(args)} failed:\n{p.stdout}{p.stderr}")
    os.makedirs(out_dir, exist_ok=True)
    # export_gqa.py's graphs: com.microsoft.GroupQueryAttention is QNN's GroupQueryAttention of op set 2.13
    gqa = _has_input(os.path.join(model_dir, "decode.onnx"), "seqlens_k")
    op_set = ["--target_op_set", "2.13"] if gqa else []
    act_bw = int(QUANT_FLAGS[quantize][QUANT_FLAGS[quantize].index("--act_bw") + 1]) if quantize else None
    if kv_bw is None and quantize:
        kv_bw = act_bw if genie or gqa else KV_CACHE_BW.get(quantize, act_bw)
    if kv_bw is not None and kv_bw != act_bw and (not quantize or genie or gqa):
        raise ValueError("kv_bw is for quantized graphs in train_llm.py's layout (not Genie's, not "
                         "GroupQueryAttention's)" if quantize else "kv_bw needs quantize")
    libs = []
    for g in ("prefill", "decode"):
        cpp = os.path.join(out_dir, g + ".cpp")
        quant = list(op_set)
        if quantize:
            quant = [*op_set, "--input_list", os.path.join(calibration, g + "_list.txt"), *QUANT_FLAGS[quantize]]
            ov = os.path.join(out_dir, g + "_overrides.json")
            entries = {"activation_encodings": [], "param_encodings": []}
            if genie:  # Genie's tensors alike in both graphs, each cache input as its output
                entries["activation_encodings"] = genie_io_overrides(model_dir, calibration, act_bw, ov)
            elif kv_bw != act_bw:
                entries["activation_encodings"] = kv_cache_overrides(
                    [os.path.join(calibration, n + "_list.txt") for n in ("prefill", "decode")], kv_bw)
            if quantize == "w4a16":
                if lpbq_overrides(os.path.join(model_dir, g + ".onnx"), ov, _lora_names(lora_weights)) == 0:
                    raise RuntimeError(f"no MatMul weights in {g}.onnx for the w4a16 (LPBQ) recipe")
                with open(ov) as f:
                    entries["param_encodings"] = json.load(f)["param_encodings"]
            if entries["activation_encodings"] or entries["param_encodings"]:
                with open(ov, "w") as f:
                    json.dump({"version": "1.0.0", **entries}, f)
                quant += ["--quantization_overrides", ov]
        if lora_weights:
            quant += ["--lora_weight_list", os.path.abspath(lora_weights)]
        if quantize and adapters:  # one overrides file (the converter reads the last one given)
            merged = _lora_encodings(tool, os.path.join(model_dir, g + ".onnx"), quant, lora_weights, adapters,
                                     os.path.join(out_dir, "lora_cal"), entries)
            if "--quantization_overrides" in quant:
                quant[quant.index("--quantization_overrides") + 1] = merged
            else:
                quant += ["--quantization_overrides", merged]
        tool("qnn-onnx-converter", "-i", os.path.join(model_dir, g + ".onnx"), "-o", cpp, "--preserve_io", *quant)
        tool("qnn-model-lib-generator", "-c", cpp, "-b", os.path.join(out_dir, g + ".bin"), "-o",
             os.path.join(out_dir, "lib"))
        libs.append(os.path.join(out_dir, "lib", "x86_64-linux-clang", f"lib{g}.so"))
    args = ["qnn-context-binary-generator", "--backend", backend, "--model", ",".join(libs), "--binary_file", "llm",
            "--output_dir", out_dir]
    if "Htp" in os.path.basename(backend):
        here = os.path.dirname(os.path.abspath(backend))
        found = [p for p in (os.path.join(d, "libQnnHtpNetRunExtensions.so") for d in (here, os.path.dirname(here)))
                 if os.path.exists(p)]
        ext = extension or (found[0] if found else None)
        if not ext:
            raise RuntimeError(f"no libQnnHtpNetRunExtensions.so beside {backend} or in its parent directory; "
                               "give its path (extension=, --extension)")
        htp = {"graphs": [{"graph_names": ["prefill", "decode"],
                           "fp16_relaxed_precision": int(bool(fp16) and not quantize)}],
               "context": {"weight_sharing_enabled": True}}
        with open(os.path.join(out_dir, "htp_config.json"), "w") as f:
            json.dump(htp, f)
        with open(os.path.join(out_dir, "config.json"), "w") as f:
            json.dump({"backend_extensions": {"shared_library_path": ext,
                                              "config_file_path": os.path.join(out_dir, "htp_config.json")}}, f)
        args += ["--config_file", os.path.join(out_dir, "config.json")]
    if adapters:
        args += ["--adapter_weight_config", _adapter_yaml(adapters, os.path.join(out_dir, "adapters.yaml"))]
    tool(*args)
    return os.path.join(out_dir, "llm.bin")


def read_safetensors(path):
    """{name: float32 array} of a safetensors file of F32/F16 tensors (read by qnn.safetensors)."""
    out = {}
    for name, t in _safetensors.read(path).items():
        if t.dtype not in ("F32", "F16"):
            raise ValueError(f"{path}: tensor {name} is {t.dtype} (F32 or F16 only)")
        out[name] = _safetensors.as_array(t).astype(np.float32)
    return out


def _lora_names(lora_weights):
    """The tensor names of a lora_weights.txt (one a line, '#' comments), or an empty set without one."""
    if not lora_weights:
        return set()
    with open(lora_weights) as f:
        return {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}


def _lora_encodings(tool, onnx_path, quant, lora_weights, adapters, work, fixed=None):
    """Encodings for a graph with LoRA branches that hold for the base and every adapter: the converter
    calibrates the graph with the base values and with each adapter's values in the branch tensors (the same
    recorded inputs, which calibrate(adapters=) took in every state), and each activation and branch tensor gets
    the union of the ranges. The final conversion takes them as --quantization_overrides, so one set of
    encodings serves every section (a zero B stays exactly zero). fixed: the recipe's own AIMET 1.0.0 entries
    ({"activation_encodings": [...], "param_encodings": [...]}: w4a16's LPBQ weights, the Genie layout's shared
    I/O encodings), written into the same file and taking precedence over the calibrated ones."""
    import onnx
    from onnx import numpy_helper
    os.makedirs(work, exist_ok=True)
    g = os.path.splitext(os.path.basename(onnx_path))[0]
    lora = _lora_names(lora_weights)
    variants = {"base": onnx_path}
    for name, files in adapters.items():
        values = read_safetensors(files if isinstance(files, (str, os.PathLike)) else files[0])
        m = onnx.load(onnx_path)
        for init in m.graph.initializer:
            if init.name in values:
                init.CopyFrom(numpy_helper.from_array(values[init.name].reshape(tuple(init.dims)), init.name))
        variants[name] = os.path.join(work, f"{g}_{name}.onnx")
        onnx.save(m, variants[name])
    union = {"version": "0.5.0", "activation_encodings": {}, "param_encodings": {}}
    for name, path in variants.items():
        cpp = os.path.join(work, f"{g}_{name}.cpp")
        tool("qnn-onnx-converter", "-i", path, "-o", cpp, "--preserve_io", *quant)
        with open(os.path.join(work, f"{g}_{name}_encodings.json")) as f:
            enc = json.load(f)
        for kind in ("activation_encodings", "param_encodings"):
            for t, entries in enc[kind].items():
                if kind == "param_encodings" and t not in lora:
                    continue  # the other weights are the same in every variant: their own encodings
                e = entries[0]
                if len(entries) != 1 or e.get("dtype") != "int":
                    union[kind].setdefault(t, entries)
                    continue
                prev = union[kind].get(t)
                lo, hi = e["min"], e["max"]
                if prev is not None and prev[0].get("dtype") == "int":
                    lo, hi = min(lo, prev[0]["min"]), max(hi, prev[0]["max"])
                union[kind][t] = [{"bitwidth": e["bitwidth"], "dtype": "int", "is_symmetric": e["is_symmetric"],
                                   "min": lo, "max": hi}]
    for kind, entries in (fixed or {}).items():  # 1.0.0 entries stand in a 0.5.0 section as they are
        for e in entries:
            if e["name"] in lora:
                raise ValueError(f"{e['name']} is a LoRA branch tensor: its encoding must hold for every adapter")
            union[kind][e["name"]] = e
    path = os.path.join(work, f"{g}_union_encodings.json")
    with open(path, "w") as f:
        json.dump(union, f, indent=1)
    return path


def _adapter_yaml(adapters, path):
    """The use cases of qnn-context-binary-generator --adapter_weight_config (every graph holding the tensors)."""
    lines = ["use_case:"]
    for name, files in adapters.items():
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name == "default_adapter":
            raise ValueError(f"adapter name '{name}': letters, digits, '_', '.', '-' only (not default_adapter)")
        weights, enc = (files, None) if isinstance(files, (str, os.PathLike)) else files
        lines += [f"  - name: {name}", f"    weights: {json.dumps(os.path.abspath(weights))}"]
        if enc:
            lines.append(f"    encodings: {json.dumps(os.path.abspath(enc))}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def adapter_sections(context):
    """{name: path} of the LoRA sections build() wrote beside the binary `context` (DIR/llm.bin):
    "base" for llm_default_adapter.bin, else the use case's name."""
    d, stem = os.path.split(os.path.splitext(context)[0])
    out = {}
    for f in sorted(os.listdir(d or ".")):
        if f.startswith(stem + "_") and f.endswith(".bin"):
            name = f[len(stem) + 1:-4]
            out["base" if name == "default_adapter" else name] = os.path.join(d, f)
    return out


def main(argv=None):
    """The command line: a refused argument or a failed step is one 'error:' line and exit status 1."""
    def run(args):
        try:
            return _main(args)
        except (ValueError, RuntimeError) as e:   # build()'s and the tools' refusals: the user's to fix
            print(f"python3 -m qnn.llm: error: {e}", file=sys.stderr)
            return 1
    return run_tool("python3 -m qnn.llm", run, argv)


def _main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m qnn.llm", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="ONNX graphs -> one context binary with both graphs")
    b.add_argument("--bin", required=True, help="directory of qnn-onnx-converter & co.")
    b.add_argument("--model", required=True, help="train_llm.py's output directory")
    b.add_argument("--backend", required=True)
    b.add_argument("--out", required=True)
    b.add_argument("--fp16", action="store_true", help="HTP: compute in half precision")
    b.add_argument("--quantize", choices=sorted(QUANT_FLAGS), help="quantize with these bit widths "
                   "(needs --calibration)")
    b.add_argument("--calibration", help="the directory of `calibrate`")
    b.add_argument("--extension", help="HTP: libQnnHtpNetRunExtensions.so (default: beside the backend or in its "
                   "parent directory)")
    b.add_argument("--kv_bw", type=int, choices=(8, 16), help="with --quantize: the KV cache's bit width "
                   "(default 8 for w8a16 / w4a16, else the activations')")
    b.add_argument("--lora_weights", help="the LoRA branches' tensor names (train_lora.py's lora_weights.txt)")
    b.add_argument("--adapter", action="append", default=[], metavar="NAME=SAFETENSORS",
                   help="a LoRA adapter made the binary section llm_NAME.bin (repeat per adapter)")
    c = sub.add_parser("calibrate", help="record the graphs' inputs on a float binary for the quantizer")
    c.add_argument("--backend", required=True)
    c.add_argument("--context", required=True)
    c.add_argument("--tokenizer", required=True)
    c.add_argument("--text", required=True, help="a text file the prompts are taken from")
    c.add_argument("--out", required=True)
    c.add_argument("--prompts", type=int, default=4)
    c.add_argument("--rope_theta", type=float, default=10000.0, help="Genie-layout binaries: the rotary base")
    c.add_argument("--adapter", action="append", default=[], metavar="SECTION",
                   help="a LoRA section of the binary: the prompts run again with it applied (repeatable)")
    r = sub.add_parser("run", help="generate text")
    r.add_argument("--backend", required=True)
    r.add_argument("--context", required=True)
    r.add_argument("--tokenizer", required=True)
    r.add_argument("--prompt", required=True)
    r.add_argument("--max_tokens", type=int, default=64)
    r.add_argument("--temperature", type=float, default=0.0)
    r.add_argument("--top_k", type=int, default=0)
    r.add_argument("--top_p", type=float, default=1.0)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--ids", action="store_true", help="also print the token ids")
    r.add_argument("--rope_theta", type=float, default=10000.0, help="Genie-layout binaries (export_genie.py): the "
                   "rotary base the runner computes cos/sin with")
    r.add_argument("--adapter", help="a LoRA binary section to apply first (build(adapters=...)): its path, or NAME "
                   "for <context>_NAME.bin beside the binary (base: the base values)")
    a = ap.parse_args(argv)
    if a.cmd == "build":
        adapters = {}
        for spec in a.adapter:
            name, sep, path = spec.partition("=")
            if not sep or not name or not path:
                ap.error(f"--adapter {spec}: give NAME=SAFETENSORS")
            adapters[name] = path
        print(build(a.bin, a.model, a.backend, a.out, fp16=a.fp16, extension=a.extension, quantize=a.quantize,
                    calibration=a.calibration, lora_weights=a.lora_weights, adapters=adapters or None,
                    kv_bw=a.kv_bw))
        return 0
    if a.cmd == "calibrate":
        with open(a.text, encoding="utf-8", errors="replace") as f:
            text = f.read()
        print(calibrate(a.backend, a.context, a.tokenizer, text, a.out, prompts=a.prompts, rope_theta=a.rope_theta,
                        adapters=a.adapter))
        return 0
    with Generator(a.backend, a.context, a.tokenizer, rope_theta=a.rope_theta) as gen:
        if a.adapter:
            section = a.adapter if os.sep in a.adapter or a.adapter.endswith(".bin") else \
                adapter_sections(a.context).get(a.adapter)
            if section is None:
                raise SystemExit(f"no section '{a.adapter}' beside {a.context} "
                                 f"(there are: {', '.join(adapter_sections(a.context)) or 'none'})")
            print(f"# adapter {a.adapter}: {section} applied in {gen.apply_adapter(section) * 1e3:.2f} ms")

        def stream(piece):
            sys.stdout.buffer.write(piece)
            sys.stdout.flush()
        stream(a.prompt.encode())
        res = gen.generate(a.prompt, a.max_tokens, a.temperature, a.top_k, a.top_p, a.seed, stream=stream)
        print()
        if a.ids:
            print("prompt ids:", " ".join(map(str, res.prompt_ids)))
            print("ids:", " ".join(map(str, res.ids)))
        print("#", res.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
