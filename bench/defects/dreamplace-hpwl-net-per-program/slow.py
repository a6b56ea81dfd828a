"""Per-net weighted HPWL over CSR pin lists (DREAMPlace hpwl, net-by-net)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _net_hpwl(pin_pos, flat_netpin, netpin_start, net_weights, net_mask, hpwl, num_pins,
              BLOCK: tl.constexpr):
    net = tl.program_id(0)
    start = tl.load(netpin_start + net)
    end = tl.load(netpin_start + net + 1)
    keep = tl.load(net_mask + net) != 0
    stop = tl.where(keep, end, start)
    x_hi = tl.full([BLOCK], float("-inf"), tl.float32)
    x_lo = tl.full([BLOCK], float("inf"), tl.float32)
    y_hi = tl.full([BLOCK], float("-inf"), tl.float32)
    y_lo = tl.full([BLOCK], float("inf"), tl.float32)
    for k in range(start, stop, BLOCK):
        slot = k + tl.arange(0, BLOCK)
        valid = slot < stop
        pin = tl.load(flat_netpin + slot, mask=valid, other=0)
        x = tl.load(pin_pos + pin, mask=valid, other=0.0)
        y = tl.load(pin_pos + num_pins + pin, mask=valid, other=0.0)
        x_hi = tl.maximum(x_hi, tl.where(valid, x, float("-inf")))
        x_lo = tl.minimum(x_lo, tl.where(valid, x, float("inf")))
        y_hi = tl.maximum(y_hi, tl.where(valid, y, float("-inf")))
        y_lo = tl.minimum(y_lo, tl.where(valid, y, float("inf")))
    span = (tl.max(x_hi, axis=0) - tl.min(x_lo, axis=0)) + (tl.max(y_hi, axis=0) - tl.min(y_lo, axis=0))
    w = tl.load(net_weights + net)
    tl.store(hpwl + net, tl.where(keep, span, 0.0) * w)


def run(pin_pos: torch.Tensor, flat_netpin: torch.Tensor, netpin_start: torch.Tensor,
        net_weights: torch.Tensor, net_mask: torch.Tensor) -> torch.Tensor:
    num_nets = net_weights.shape[0]
    num_pins = flat_netpin.shape[0]
    hpwl = torch.empty(num_nets, device=pin_pos.device, dtype=torch.float32)
    _net_hpwl[(num_nets,)](pin_pos, flat_netpin, netpin_start, net_weights, net_mask, hpwl, num_pins,
                           BLOCK=16, num_warps=1)
    return hpwl
