// The Runs page chart: the kernel's time per round against torch.compile and the roofline floor.
(function () {
  const holder = document.getElementById("run-chart");
  const data = JSON.parse(document.getElementById("chart-data").textContent);
  if (!holder || !data.x.length || typeof uPlot === "undefined") return;
  const series = [{ label: "round" },
    { label: "kernel (ms)", stroke: "#1f3a5f", width: 2, points: { size: 7 } },
    { label: "torch.compile (ms)", stroke: "#c2410c", dash: [6, 4] },
    { label: "roofline floor (ms)", stroke: "#2d8a45", dash: [2, 4] }];
  const opts = { width: Math.min(holder.clientWidth || 900, 1100), height: 300, series,
    scales: { x: { time: false } },
    axes: [{ label: "round", incrs: [1] }, { label: "ms" }] };
  const chart = new uPlot(opts, [data.x, data.kernel_ms, data.compile_ms, data.roofline_ms], holder);
  holder.dataset.ready = "1";
  window.passwiseChart = chart;
})();
