"""CVRP route costs of a population of solutions: leg distances and capacity penalty per route."""
import torch
import triton
import triton.language as tl


@triton.jit
def _route_cost(routes, dist, demand, cost, n_routes, n_nodes, capacity, penalty,
                L: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    k = tl.arange(0, BLOCK_L)
    r_ok = r < n_routes
    at = routes + r[:, None] * L + k[None, :]
    on_route = r_ok[:, None] & (k[None, :] < L)
    has_leg = r_ok[:, None] & (k[None, :] < L - 1)
    stop = tl.load(at, mask=on_route, other=0)
    nxt = tl.load(at + 1, mask=has_leg, other=0)
    leg = tl.load(dist + stop * n_nodes + nxt, mask=has_leg, other=0.0)
    need = tl.load(demand + stop, mask=on_route, other=0.0)
    travelled = tl.sum(leg, axis=1)
    excess = tl.maximum(tl.sum(need, axis=1) - capacity, 0.0)
    tl.store(cost + r, travelled + penalty * excess, mask=r_ok)


def run(routes, dist, demand, capacity, penalty):
    P, R, L = routes.shape
    n_nodes = dist.shape[0]
    cost = torch.empty((P, R), device=routes.device, dtype=torch.float32)
    BLOCK_R = 32
    grid = (triton.cdiv(R, BLOCK_R),)
    for s in range(P):
        _route_cost[grid](routes[s], dist, demand, cost[s], R, n_nodes, capacity, penalty,
                          L=L, BLOCK_R=BLOCK_R, BLOCK_L=triton.next_power_of_2(L), num_warps=4)
    return cost
