"""tvm.contrib: libraries TVM calls through extern stages (cblas), TEDD (tedd), the schedule
visualizer, and the system compiler and temporary files (cc, utils) that saving a built module
uses."""
