"""The runner's side of the exported graphs' interface (train_llm.py's docstring): the feeds of one call and
the K/V it returns written back into the cache. Shared by check_llm.py and calibration.py."""
import numpy as np

MASK_NEG = -10000.0   # train_llm.MASK_NEG: the additive mask's "may not attend"


def step_feeds(c, cache, n, ids, start):
    """Feeds of an AR-n graph for len(ids) <= n new tokens at positions start.. (a short list pads the tail);
    cache [2 * layers, 1, kv_heads, ctx, head_dim] holds the sequence's K/V in slots 0..start-1."""
    ctx, L = c["ctx"], c["layers"]
    past = ctx - n
    assert start <= past, "the context is full"
    m = len(ids)
    feeds = {"input_ids": np.array([list(ids) + [0] * (n - m)], np.int64),
             "position_ids": np.array([[start + i if i < m else 0 for i in range(n)]], np.int64)}
    mask = np.full((1, 1, n, ctx), MASK_NEG, np.float32)
    mask[..., :start] = 0.0  # the past slots in use
    for i in range(n):  # the new tokens, causal among themselves (padding rows see themselves only)
        mask[0, 0, i, past:past + (i + 1 if i < m else 0)] = 0.0
        mask[0, 0, i, past + i] = 0.0
    feeds["attention_mask"] = mask
    for i in range(L):
        feeds[f"past_key_{i}"] = np.ascontiguousarray(cache[2 * i, :, :, :past])
        feeds[f"past_value_{i}"] = np.ascontiguousarray(cache[2 * i + 1, :, :, :past])
    return feeds


def store_kv(c, cache, out, start, m):
    """Write the first m new tokens' K/V of a call's outputs into cache slots start..start+m-1."""
    for i in range(c["layers"]):
        cache[2 * i, :, :, start:start + m] = np.asarray(out[f"new_key_{i}"]).reshape(
            cache.shape[1:3] + (-1, cache.shape[4]))[:, :, :m]
        cache[2 * i + 1, :, :, start:start + m] = np.asarray(out[f"new_value_{i}"]).reshape(
            cache.shape[1:3] + (-1, cache.shape[4]))[:, :, :m]
