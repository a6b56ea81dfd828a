"""Per-net weighted HPWL over CSR pin lists (DREAMPlace hpwl, net-by-net)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _net_hpwl(pin_pos, flat_netpin, netpin_start, net_weights, net_mask, hpwl, num_nets, num_pins,
              BLOCK_NETS: tl.constexpr, CHUNK: tl.constexpr):
    nets = tl.program_id(0) * BLOCK_NETS + tl.arange(0, BLOCK_NETS)
    in_range = nets < num_nets
    start = tl.load(netpin_start + nets, mask=in_range, other=0)
    end = tl.load(netpin_start + nets + 1, mask=in_range, other=0)
    keep = in_range & (tl.load(net_mask + nets, mask=in_range, other=0) != 0)
    deg = tl.where(keep, end - start, 0)
    cols = tl.arange(0, CHUNK)
    x_hi = tl.full([BLOCK_NETS, CHUNK], float("-inf"), tl.float32)
    x_lo = tl.full([BLOCK_NETS, CHUNK], float("inf"), tl.float32)
    y_hi = tl.full([BLOCK_NETS, CHUNK], float("-inf"), tl.float32)
    y_lo = tl.full([BLOCK_NETS, CHUNK], float("inf"), tl.float32)
    for k in range(0, tl.max(deg, axis=0), CHUNK):
        j = k + cols
        valid = j[None, :] < deg[:, None]
        pin = tl.load(flat_netpin + start[:, None] + j[None, :], mask=valid, other=0)
        x = tl.load(pin_pos + pin, mask=valid, other=0.0)
        y = tl.load(pin_pos + num_pins + pin, mask=valid, other=0.0)
        x_hi = tl.maximum(x_hi, tl.where(valid, x, float("-inf")))
        x_lo = tl.minimum(x_lo, tl.where(valid, x, float("inf")))
        y_hi = tl.maximum(y_hi, tl.where(valid, y, float("-inf")))
        y_lo = tl.minimum(y_lo, tl.where(valid, y, float("inf")))
    span = (tl.max(x_hi, axis=1) - tl.min(x_lo, axis=1)) + (tl.max(y_hi, axis=1) - tl.min(y_lo, axis=1))
    w = tl.load(net_weights + nets, mask=in_range, other=0.0)
    tl.store(hpwl + nets, tl.where(keep, span, 0.0) * w, mask=in_range)


def run(pin_pos: torch.Tensor, flat_netpin: torch.Tensor, netpin_start: torch.Tensor,
        net_weights: torch.Tensor, net_mask: torch.Tensor) -> torch.Tensor:
    num_nets = net_weights.shape[0]
    num_pins = flat_netpin.shape[0]
    hpwl = torch.empty(num_nets, device=pin_pos.device, dtype=torch.float32)
    BLOCK_NETS = 128
    grid = (triton.cdiv(num_nets, BLOCK_NETS),)
    _net_hpwl[grid](pin_pos, flat_netpin, netpin_start, net_weights, net_mask, hpwl, num_nets, num_pins,
                    BLOCK_NETS=BLOCK_NETS, CHUNK=8, num_warps=4)
    return hpwl
