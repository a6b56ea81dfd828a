"""Value backup of a batched AlphaZero-style MCTS (DeepMind mctx `search.backward`, two-player zero-sum game).

B search trees live in flat node arrays [B, N] (node 0 is the root, parents[b, 0] = -1, a node's parent has a
smaller index). After the simulation has expanded leaf_index[b] and the network valued it (leaf_value[b], from
the point of view of the player to move at the leaf), the value is backed up along the path to the root:
    node = leaf, v = leaf_value
    repeat: value[node] = (value[node] * visits[node] + v) / (visits[node] + 1); visits[node] += 1
            v = reward + discount * v  (board games: reward 0, discount -1, the sign flips every ply)
            node = parents[node]       until the root has been updated.
Returns the updated (node_values fp32 [B, N], node_visits int32 [B, N]); the inputs stay unchanged.
"""
import torch

META = {
    "name": "mcts_backward",
    "level": 2,
    "category": "tree-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 5, "N": 33},
        "ragged": {"B": 7, "N": 50},
        "large": {"B": 2048, "N": 801},
    },
    "baseline_notes": "One launch over blocks of 32 trees (1 warp); each lane walks its tree from the leaf to "
                      "the root inside the kernel (a while loop on the block's max node index): per level one "
                      "gather of the node's visits, value and parent and two masked stores into the copied "
                      "node arrays. No autotune.",
    "deterministic": True,
}
MAX_BACKSTEP = 64  # how far back a node's parent can be: sets the depth of the generated trees


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """parents int32 [B, N], node_visits int32 [B, N], node_values fp32 [B, N], leaf_index int32 [B],
    leaf_value fp32 [B]. The leaf is the node the last simulation expanded (index N - 1, not yet visited)."""
    s = META["sizes"][size]
    B, N = s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    idx = torch.arange(N)
    back = torch.floor(torch.rand(B, N, generator=g) * torch.clamp(idx, max=MAX_BACKSTEP).float()).long()
    parents = (idx - 1 - back).clamp(min=0)
    parents[:, 0] = -1
    visits = torch.ones(B, N, dtype=torch.int64)
    visits[:, N - 1] = 0
    for i in range(N - 2, 0, -1):   # visits = size of the visited subtree
        visits.scatter_add_(1, parents[:, i:i + 1], visits[:, i:i + 1])
    values = (torch.rand(B, N, generator=g) * 2 - 1) * 0.9
    values[:, N - 1] = 0.0
    leaf_index = torch.full((B,), N - 1, dtype=torch.int32)
    leaf_value = torch.rand(B, generator=g) * 2 - 1
    return (parents.to(torch.int32).to(device), visits.to(torch.int32).to(device), values.to(dt).to(device),
            leaf_index.to(device), leaf_value.to(dt).to(device))


def reference(parents, node_visits, node_values, leaf_index, leaf_value) -> tuple:
    values = node_values.double().clone()
    visits = node_visits.long().clone()
    par = parents.long()
    node = leaf_index.long().clone()
    v = leaf_value.double().clone()
    rows = torch.arange(node.shape[0], device=node.device)
    while bool((node >= 0).any()):
        act = node >= 0
        r, c = rows[act], node[act]
        n = visits[r, c]
        values[r, c] = (values[r, c] * n + v[act]) / (n + 1)
        visits[r, c] = n + 1
        node = torch.where(act, par[rows, node.clamp(min=0)], node)
        v = -v
    return values.to(node_values.dtype), visits.to(node_visits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * 8 * s["B"] * s["N"] + 8 * s["B"], "flops": 4 * s["B"] * 40}
