"""YOLOv8 Detect head inference decode (ultralytics Detect._inference): split the raw head output
[B, 4 * 16 + nc, A] into box logits and class logits; DFL (softmax over the 16 distance bins of each side,
expectation over bin index 0..15) gives (l, t, r, b); dist2bbox(xywh) around the anchor point, times the
level stride; class scores through a sigmoid. Output [B, 4 + nc, A] fp32."""
import torch

META = {
    "name": "yolov8_dfl_box_decode",
    "level": 2,
    "category": "vision",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "nc": 5, "levels": [(4, 4, 8.0), (2, 2, 16.0), (1, 1, 32.0)]},
        "ragged": {"B": 3, "nc": 7, "levels": [(10, 6, 8.0), (5, 3, 16.0), (3, 2, 32.0)]},
        "large": {"B": 32, "nc": 80, "levels": [(80, 80, 8.0), (40, 40, 16.0), (20, 20, 32.0)]},
    },
    "baseline_notes": "Grid = 40 vector cores, each looping over (image, 256-anchor block) tiles; per side the "
                      "16 bin logits are loaded as a [16, 256] tile (anchors contiguous), softmax and "
                      "expectation reduced over axis 0; class logits through sigmoid in [16, 256] row chunks.",
    "deterministic": True,
}

REG_MAX = 16


def _anchors(levels) -> tuple:
    pts, strides = [], []
    for h, w, s in levels:
        sy, sx = torch.meshgrid(torch.arange(h) + 0.5, torch.arange(w) + 0.5, indexing="ij")
        pts.append(torch.stack([sx.flatten(), sy.flatten()]))
        strides.append(torch.full((h * w,), s))
    return torch.cat(pts, dim=1), torch.cat(strides)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """preds [B, 64 + nc, A] raw head logits, anchor points [2, A] (grid-cell centres in feature units) and
    strides [A] (make_anchors of the three FPN levels)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    anchors, strides = _anchors(s["levels"])
    a = anchors.shape[1]
    box = torch.randn(s["B"], 4 * REG_MAX, a, generator=g) * 2.0
    cls = torch.randn(s["B"], s["nc"], a, generator=g) * 3.0 - 4.0
    preds = torch.cat([box, cls], dim=1)
    return preds.to(dt).to(device), anchors.to(dt).to(device), strides.to(dt).to(device)


def reference(preds: torch.Tensor, anchors: torch.Tensor, strides: torch.Tensor) -> torch.Tensor:
    b, c, a = preds.shape
    p = preds.double()
    box, cls = p[:, : 4 * REG_MAX], p[:, 4 * REG_MAX:]
    prob = box.view(b, 4, REG_MAX, a).softmax(dim=2)
    dist = (prob * torch.arange(REG_MAX, dtype=torch.float64, device=p.device).view(1, 1, -1, 1)).sum(dim=2)
    lt, rb = dist[:, :2], dist[:, 2:]
    anc = anchors.double().unsqueeze(0)
    x1y1, x2y2 = anc - lt, anc + rb
    xywh = torch.cat([(x1y1 + x2y2) / 2, x2y2 - x1y1], dim=1) * strides.double()
    return torch.cat([xywh, cls.sigmoid()], dim=1).to(preds.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    a = sum(h * w for h, w, _ in s["levels"])
    c = 4 * REG_MAX + s["nc"]
    return {"bytes": 4 * (s["B"] * c * a + 3 * a + s["B"] * (4 + s["nc"]) * a),
            "flops": s["B"] * a * (4 * REG_MAX * 4 + 12 + 4 * s["nc"])}
