"""tvm.contrib: libraries TVM calls through extern stages (cblas) and TEDD (tedd), the schedule
visualizer."""
