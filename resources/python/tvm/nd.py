"""tvm.nd: n-dimensional arrays for built functions, as TVM's `tvm.nd`.

An NDArray owns a C-contiguous numpy array (numpy is imported on first use, so `import tvm`
works without it); `tvm.build`'s functions read and write it in place. `tvm.nd.array(np_array)`
copies, as in TVM; `.numpy()` (and the older `.asnumpy()`) returns a copy.
"""

from ._placeholder import missing as _missing
from .error import TVMError


def _numpy():
    try:
        import numpy
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise TVMError("tvm.nd needs numpy (Debian: apt-get install python3-numpy)") from err
    return numpy


_DEVICE_TYPES = {"cpu": 1, "llvm": 1, "cuda": 2, "gpu": 2, "nvptx": 2, "opencl": 4, "cl": 4}
_DEVICE_NAMES = {1: "cpu", 2: "cuda", 4: "opencl"}


def _cuda_status():
    """(available, why not): whether a CUDA driver and GPU can be used here."""
    import _boundscope
    return tuple(_boundscope._cuda_available())


class Device:
    """A device as DLPack numbers it: the CPU (`tvm.cpu(0)`, type 1) or a CUDA GPU
    (`tvm.cuda(0)`, type 2). Arrays on either live in host memory; a cuda build copies them
    to the GPU and back around each call."""

    def __init__(self, device_id=0, device_type=1):
        if not isinstance(device_id, int) or device_id < 0:
            raise TVMError("device id must be a non-negative int, got %r" % (device_id,))
        self.device_id = device_id
        self.device_type = device_type

    @property
    def exist(self):
        """Whether the device is present (a CUDA device needs a driver and a GPU; there is no
        OpenCL runtime here)."""
        if self.device_type == 2:
            return _cuda_status()[0]
        return self.device_type == 1

    def _require(self, what):
        if self.device_type == 2:
            available, why = _cuda_status()
            if not available:
                raise TVMError("%s: %r is not available: %s" % (what, self, why))
        if self.device_type == 4:
            raise TVMError("%s: %r is not available: Boundscope has no OpenCL runtime "
                           "(tvm.build(..., \"opencl\") gives the OpenCL C)" % (what, self))

    def __eq__(self, other):
        return (isinstance(other, Device) and other.device_id == self.device_id
                and other.device_type == self.device_type)

    def __hash__(self):
        return hash((self.device_type, self.device_id))

    def __repr__(self):
        return "%s(%d)" % (_DEVICE_NAMES[self.device_type], self.device_id)


def cpu(dev_id=0):
    """tvm.cpu(0): the host CPU."""
    return Device(dev_id)


def cuda(dev_id=0):
    """tvm.cuda(0): a CUDA GPU (`.exist` says whether one is present)."""
    return Device(dev_id, 2)


gpu = cuda


def opencl(dev_id=0):
    """tvm.opencl(0): an OpenCL device (never present here: `.exist` is False)."""
    return Device(dev_id, 4)


cl = opencl


def device(dev_type, dev_id=0):
    """tvm.device("cpu", 0), tvm.device("cuda", 0), tvm.device("opencl", 0)."""
    if isinstance(dev_type, str):
        kind = _DEVICE_TYPES.get(dev_type.split()[0])
    else:
        kind = dev_type if dev_type in _DEVICE_NAMES else None
    if kind is None:
        raise TVMError("device %r is not available: Boundscope runs on the CPU (llvm) and on "
                       "CUDA GPUs (cuda), and knows OpenCL devices (opencl)" % (dev_type,))
    return Device(dev_id, kind)


class NDArray:
    """An array on the CPU: `.shape`, `.dtype`, `.device`, `.numpy()`, `.copyfrom()`."""

    def __init__(self, array, dev):
        self._array = array
        self.device = dev

    @property
    def shape(self):
        return tuple(self._array.shape)

    @property
    def dtype(self):
        return str(self._array.dtype)

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    def numpy(self):
        """A numpy copy of the contents."""
        return self._array.copy()

    asnumpy = numpy

    def copyfrom(self, source):
        """Copies `source` (an NDArray or array-like of the same shape) into this array."""
        np = _numpy()
        values = source._array if isinstance(source, NDArray) else np.asarray(source)
        if tuple(values.shape) != self.shape:
            raise ValueError("array shape do not match the shape of NDArray %s vs %s"
                             % (tuple(values.shape), self.shape))
        np.copyto(self._array, values, casting="same_kind")
        return self

    def copyto(self, target):
        """Copies into another NDArray, or to a new one on `target` (a Device)."""
        if isinstance(target, NDArray):
            return target.copyfrom(self)
        if isinstance(target, Device):
            target._require("copyto")
            return NDArray(self._array.copy(), target)
        raise TVMError("copyto expects an NDArray or a Device, got %s" % type(target).__name__)

    def __array__(self, dtype=None):
        return self._array if dtype is None else self._array.astype(dtype)

    def __repr__(self):
        return "<tvm.nd.NDArray shape=%s, %s>\n%r" % (self.shape, self.device, self._array)


def array(arr, device=None, dtype=None):  # noqa: A002 - TVM's name
    """tvm.nd.array(source): a copy of `source` (numpy array, NDArray or nested lists)."""
    np = _numpy()
    device = device or cpu(0)
    device._require("tvm.nd.array")
    if isinstance(arr, NDArray):
        arr = arr._array
    return NDArray(np.array(arr, dtype=dtype, order="C", copy=True), device)


def empty(shape, dtype="float32", device=None):  # noqa: A002 - TVM's name
    """tvm.nd.empty(shape, dtype): an uninitialised array."""
    np = _numpy()
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(int(s) for s in shape)
    except (TypeError, ValueError) as err:
        raise TVMError("tvm.nd.empty: shape must be a tuple of ints, got %r" % (shape,)) from err
    try:
        element = np.dtype(dtype)
    except TypeError as err:
        raise TVMError("tvm.nd.empty: unknown dtype %r" % (dtype,)) from err
    device = device or cpu(0)
    device._require("tvm.nd.empty")
    return NDArray(np.empty(shape, dtype=element), device)


__getattr__ = _missing("tvm.nd")
