"""EPA SWMM dynamic wave: node continuity of one Picard trial (updateNodeFlows + setNodeDepth)."""
import torch
import triton
import triton.language as tl

MAX_DEGREE = 8
MIN_SURFAREA = 1.167


@triton.jit
def _node_depth(node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node, y_full,
                y_new, net_out, n_nodes, dt, omega,
                MIN_SURFAREA: tl.constexpr, MAX_DEGREE: tl.constexpr):
    # one program per node, as in SWMM's `for (i = 0; i < Nobjects[NODE]; i++) setNodeDepth(i)`
    i = tl.program_id(0)
    first = tl.load(node_ptr + i)
    last = tl.load(node_ptr + i + 1)
    k = first + tl.arange(0, MAX_DEGREE)
    has = k < last
    link = tl.load(inc_link + k, mask=has, other=0)
    sign = tl.load(inc_dir + k, mask=has, other=0.0)
    flow = tl.load(q + link, mask=has, other=0.0)
    surf = tl.load(a_surf + link, mask=has, other=0.0)
    net = tl.load(lat + i) + tl.sum(sign * flow, axis=0)
    area = tl.maximum(tl.load(a_node + i) + 0.5 * tl.sum(surf, axis=0), MIN_SURFAREA)
    y = tl.load(y_old + i) + 0.5 * (tl.load(net_old + i) + net) * dt / area
    y = (1.0 - omega) * tl.load(y_last + i) + omega * y
    y = tl.minimum(tl.maximum(y, 0.0), tl.load(y_full + i))
    tl.store(y_new + i, y)
    tl.store(net_out + i, net)


def run(node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node, y_full,
        dt: float, omega: float) -> tuple:
    n_nodes = y_old.numel()
    y_new = torch.empty_like(y_old)
    net = torch.empty_like(y_old)
    _node_depth[(n_nodes,)](node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node,
                            y_full, y_new, net, n_nodes, dt, omega,
                            MIN_SURFAREA=MIN_SURFAREA, MAX_DEGREE=MAX_DEGREE, num_warps=4)
    return y_new, net
