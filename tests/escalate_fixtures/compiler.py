from triton._C.libtriton import ir, passes


def make_ttgir(mod, metadata, opt, capability):
    pm = ir.pass_manager(mod.context)
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_accelerate_matmul(pm)
    if opt.num_stages > 1:
        passes.ttgpuir.add_pipeline(pm, opt.num_stages)
    passes.ttgpuir.add_coalesce_async_copy(pm)
    pm.run(mod)
    return mod
